import {
  ATTACHMENT_DOWNLOAD_PATH,
  attachmentUpload,
  type Envelope,
  type RequestDetail,
  type UploadData,
} from '@athena/contract';
import { buildTeam, type People, signInPeople, type TeamFixture } from '../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

export const API = '/api/athena/v1/custom_business';
export const OPERATOR_PHONE = '13100000009';

export type Headers = Record<string, string>;

/** A valid request body; override what a case is about. */
export const validRequest = (extra: Record<string, unknown> = {}) => ({
  title: '智能客服',
  scenario: 'customer_service',
  requirements: '我们需要一个能回答产品问题并转人工的客服机器人。',
  contact_name: '王经理',
  contact_phone: '13912345678',
  budget_range: '10k_50k',
  ...extra,
});

/**
 * The app with one operator (OPERATOR_PHONES), and a team of creator, admin and member plus a
 * stranger who runs a team of their own, all built through the real API.
 */
export async function setUpCustomBusiness() {
  const t = await createTestApp({
    env: { OPERATOR_PHONES: `13000000000, ${OPERATOR_PHONE}`, SMS_DAILY_LIMIT_PER_IP: '100000' },
  });
  const people: People = await signInPeople(t);
  const team: TeamFixture = await buildTeam(t, { people, name: 'Custom business team' });
  const operator = await t.signInBySms(OPERATOR_PHONE);
  return new CustomBusinessFixture(t, people, team, operator);
}

export class CustomBusinessFixture {
  constructor(
    readonly t: TestApp,
    readonly people: People,
    readonly team: TeamFixture,
    /** An operator with only a personal space: not a member of the team. */
    readonly operator: string,
  ) {}

  /** Headers for one person, in the team unless another space (or none: null) is named. */
  as(who: keyof People | 'operator', space: string | null = this.team.teamId, language?: string): Headers {
    const token = who === 'operator' ? this.operator : this.people[who];
    return { token, ...(space ? { 'space-id': space } : {}), ...(language ? { language } : {}) };
  }

  async call<T = RequestDetail>(action: string, body: unknown, headers: Headers): Promise<Envelope<T>> {
    return (await this.t.call<T>(`${API}/${action}`, body, headers)).body;
  }

  /** Calls and insists on success. */
  async ok<T = RequestDetail>(action: string, body: unknown, headers: Headers): Promise<T> {
    const result = await this.call<T>(action, body, headers);
    if (result.code !== 0) throw new Error(`${action}: ${result.code} ${result.msg}`);
    return result.data;
  }

  async upload(bytes: Buffer, name: string | null, headers: Headers, contentType = 'application/octet-stream') {
    const response = await this.t.app.inject({
      method: 'POST',
      url: attachmentUpload.path,
      headers: {
        'content-type': contentType,
        ...(name === null ? {} : { 'x-file-name': encodeURIComponent(name) }),
        ...headers,
      },
      payload: bytes,
    });
    return {
      status: response.statusCode,
      body: response.json() as Envelope<UploadData<typeof attachmentUpload>>,
    };
  }

  async uploadOk(bytes: Buffer, name: string, headers: Headers) {
    const { body } = await this.upload(bytes, name, headers);
    if (body.code !== 0) throw new Error(`upload: ${body.code} ${body.msg}`);
    return body.data;
  }

  download(id: string, headers: Headers) {
    return this.t.app.inject({
      method: 'POST',
      url: ATTACHMENT_DOWNLOAD_PATH,
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify({ id }),
    });
  }

  close() {
    return this.t.close();
  }
}
