import { createHash, randomUUID } from 'node:crypto';
import {
  behaviourRoutes as b,
  type ProfileCustomer,
  profileRoutes,
  type SatisfactionSettings,
  type SatisfactionSurvey,
} from '@athena/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../platform/db/sql.ts';
import { wecomMsgid } from '../../platform/wecom/msgid.ts';
import { type FakeWecomApi, startFakeWecomApi } from '../../testing/fake-wecom-api.ts';
import { buildTeam, type TeamFixture } from '../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { connectWecom, kfEvent, kfSessionEnd, kfText } from './behaviour-test-kit.ts';

describe('satisfaction: asked when a WeCom session ends, answered by a menu tap', () => {
  let t: TestApp;
  let team: TeamFixture;
  let wecom: FakeWecomApi;
  let push: () => Promise<void>;
  const at = (token: string) => ({ ...team.as(token), 'scene-id': '5' });
  const question = {
    enabled: true,
    head: '请为本次服务打分',
    options: [
      { score: 5, label: '很好' },
      { score: 3, label: '一般' },
      { score: 1, label: '很差' },
    ],
  };
  const surveys = async (body: Record<string, unknown> = {}, token = team.member) => {
    const answer = await t.call(b.satisfactionList, body, at(token));
    expect(answer.body.code, answer.body.msg).toBe(0);
    return answer.body.data as { items: SatisfactionSurvey[]; total: number };
  };
  const menus = () => wecom.sent.filter((sent) => sent.msgtype === 'msgmenu');
  /** The msgid a survey's menu is sent with, computed here from the survey's space, scene and id. */
  async function expectedMsgid(surveyId: string) {
    const [row] = rowsOf<{ space_id: string; scene_id: number }>(
      await t.database.db.execute(sql`select space_id, scene_id from satisfaction_surveys where id = ${surveyId}`),
    );
    const hash = createHash('sha256').update(`${row.space_id}:${row.scene_id}:${surveyId}`).digest('base64url');
    return { msgid: `sat${hash.slice(0, 29)}`, spaceId: row.space_id };
  }
  /** A customer writes, a servicer takes the session, and the session ends with `code`. */
  async function serveAndEnd(customer: string, n: string, code: string) {
    wecom.receive(
      kfText(`${n}-hello`, customer, '你好'),
      kfEvent(`${n}-take`, customer, {
        event_type: 'session_status_change',
        change_type: 1,
        new_servicer_userid: 'zhangsan',
      }),
      kfSessionEnd(`${n}-end`, customer, code),
    );
    await push();
  }

  beforeAll(async () => {
    wecom = await startFakeWecomApi();
    t = await createTestApp({ env: { WECOM_API_BASE: wecom.url } });
    team = await buildTeam(t, { phonePrefix: '135540000' });
    push = await connectWecom(t, wecom, team.as(team.creator));
  });
  afterAll(async () => {
    await t.close();
    await wecom.close();
  });

  it('is off by default, worded in the reader’s language; only the creator and admins change it', async () => {
    const read = async (language: string) =>
      (await t.call(b.satisfactionSettingsGet, {}, { ...at(team.member), language })).body.data as SatisfactionSettings;
    expect(await read('zh-CN')).toMatchObject({ enabled: false, head: '请对本次服务进行评价', updated_at: null });
    expect((await read('zh-CN')).options.map((o) => o.score)).toEqual([5, 4, 3, 2, 1]);
    expect((await read('zh-TW')).options[0].label).toBe('非常滿意');
    expect((await read('en')).options[4].label).toBe('Very dissatisfied');

    expect((await t.call(b.satisfactionSettingsUpdate, question, at(team.member))).body.code).toBe(40300);
    const sameScore = {
      ...question,
      options: [
        { score: 5, label: 'a' },
        { score: 5, label: 'b' },
      ],
    };
    expect((await t.call(b.satisfactionSettingsUpdate, sameScore, at(team.admin))).body.code).toBe(40822);
    const tooFew = { ...question, options: [{ score: 5, label: 'a' }] };
    expect((await t.call(b.satisfactionSettingsUpdate, tooFew, at(team.admin))).body.code).toBe(40822);
    expect((await t.call(b.satisfactionSettingsUpdate, { ...question, head: ' ' }, at(team.admin))).body.code).toBe(
      40822,
    );
    // Nothing is asked while it is off.
    await serveAndEnd('wmOff', 'off', 'CODE-OFF');
    expect(menus()).toHaveLength(0);

    const saved = await t.call(b.satisfactionSettingsUpdate, question, at(team.admin));
    expect(saved.body.data).toMatchObject({ enabled: true, head: '请为本次服务打分', options: question.options });
    expect((await read('en')).head).toBe('请为本次服务打分');
  });

  it('sends the menu with the end’s code once, and stores the customer’s first tap as the rating', async () => {
    await serveAndEnd('wmLi', 'li', 'CODE-LI');
    expect(menus()).toHaveLength(1);
    const [survey] = (await surveys()).items;
    expect(survey).toMatchObject({ state: 'sent', servicer: 'zhangsan', score: null, fail_reason: null });
    // The msgid is a hash of space, scene and survey: another database's survey of the same number
    // (a second deployment on the corp, a restored copy) does not reuse it. At most 32 bytes of
    // [0-9a-zA-Z_-@], WeCom's limits, and the same every time it is made for this survey.
    const expected = await expectedMsgid(survey.id);
    expect(menus()[0].msgid).toBe(expected.msgid);
    expect(menus()[0].msgid).toMatch(/^[0-9a-zA-Z_\-@]{1,32}$/);
    expect(wecomMsgid('sat', expected.spaceId, 5, survey.id)).toBe(expected.msgid);
    expect(wecomMsgid('sat', expected.spaceId, 5, Number(survey.id))).toBe(expected.msgid);
    expect(wecomMsgid('sat', randomUUID(), 5, survey.id)).not.toBe(expected.msgid);
    expect(wecomMsgid('sat', expected.spaceId, 6, survey.id)).not.toBe(expected.msgid);
    expect(menus()[0]).toEqual({
      code: 'CODE-LI',
      msgid: expected.msgid,
      msgtype: 'msgmenu',
      msgmenu: {
        head_content: '请为本次服务打分',
        list: question.options.map((o) => ({
          type: 'click',
          click: { id: `sat:${survey.id}:${o.score}`, content: o.label },
        })),
        tail_content: '',
      },
    });

    // Another customer tapping this survey's item is not its answer.
    wecom.receive(kfText('other-tap', 'wmOther', '很好', `sat:${survey.id}:5`));
    await push();
    expect((await surveys()).items[0].state).toBe('sent');

    wecom.receive(
      kfText('li-tap', 'wmLi', '一般', `sat:${survey.id}:3`),
      kfText('li-tap-2', 'wmLi', '很差', `sat:${survey.id}:1`),
    );
    await push();
    const rated = (await surveys()).items.find((s) => s.id === survey.id);
    expect(rated).toMatchObject({ state: 'rated', score: 3, label: '一般', customer_name: '' });
    expect(rated?.rated_at).not.toBeNull();
    // The tap stays in chat history as a message of the conversation.
    const customers = (await t.call(profileRoutes.customerList, { keyword: 'wmLi' }, at(team.member))).body.data as {
      items: ProfileCustomer[];
    };
    expect(customers.items[0].message_count).toBe(3);
    // The page pulled again: no second menu, no second survey.
    await t.database.db.execute(sql`update wecom_cursors set cursor = ''`);
    await push();
    expect(menus()).toHaveLength(1);
    expect((await surveys()).total).toBe(1);
  });

  it('stores a survey WeCom refused as failed, with WeCom’s reason', async () => {
    wecom.failNextEventSend(95007);
    await serveAndEnd('wmLate', 'late', 'CODE-LATE');
    const failed = (await surveys()).items.find((s) => s.state === 'failed');
    expect(failed?.fail_reason).toContain('95007');
    // A failed survey takes no answer.
    wecom.receive(kfText('late-tap', 'wmLate', '很好', `sat:${failed?.id}:5`));
    await push();
    expect((await surveys({ score: 5 })).total).toBe(0);
  });

  it('filters and sums up ratings per conversation, agent and servicer', async () => {
    await serveAndEnd('wmHan', 'han', 'CODE-HAN');
    const han = (await surveys()).items.find((s) => s.state === 'sent');
    wecom.receive(kfText('han-tap', 'wmHan', '很好', `sat:${han?.id}:5`));
    await push();

    expect((await surveys({ score: 5 })).total).toBe(1);
    expect((await surveys({ servicer: 'zhangsan' })).total).toBe(3);
    expect((await surveys({ servicer: 'nobody' })).total).toBe(0);
    expect((await surveys({ time: '1h' })).total).toBe(3);
    const future = Date.now() + 86_400_000;
    expect((await surveys({ time: 'custom', start_time: future, end_time: future + 1 })).total).toBe(0);
    expect((await t.call(b.satisfactionList, { time: 'custom' }, at(team.member))).body.code).toBe(40502);

    const summary = await t.call(b.satisfactionSummary, { group_by: 'servicer' }, at(team.member));
    expect(summary.body.data).toEqual({
      asked: 3,
      rated: 2,
      average: 4,
      distribution: [0, 0, 1, 0, 1],
      groups: [{ key: 'zhangsan', label: 'zhangsan', asked: 3, rated: 2, average: 4, distribution: [0, 0, 1, 0, 1] }],
    });
    const perConversation = await t.call(b.satisfactionSummary, { group_by: 'conversation' }, at(team.member));
    expect((perConversation.body.data as { groups: unknown[] }).groups).toHaveLength(3);
    const perAgent = await t.call(b.satisfactionSummary, { group_by: 'agent' }, at(team.member));
    expect((perAgent.body.data as { groups: { key: string }[] }).groups).toMatchObject([{ key: '', asked: 3 }]);
  });

  it('shows a customer’s ratings to every member; a stranger gets NOT_FOUND or 16023', async () => {
    const customers = (await t.call(profileRoutes.customerList, { keyword: 'wmLi' }, at(team.member))).body.data as {
      items: ProfileCustomer[];
    };
    const li = customers.items[0].id;
    expect((await surveys({ customer_id: li })).items).toMatchObject([{ score: 3 }]);
    const stranger = { ...team.as(team.stranger, team.strangerTeamId), 'scene-id': '5' };
    expect((await t.call(b.satisfactionList, { customer_id: li }, stranger)).body.code).toBe(40400);
    expect((await t.call(b.satisfactionList, {}, stranger)).body.data).toEqual({ items: [], total: 0 });
    expect((await t.call(b.satisfactionList, {}, { ...team.as(team.stranger), 'scene-id': '5' })).body.code).toBe(
      16023,
    );
    expect((await t.call(b.satisfactionSettingsUpdate, question, stranger)).body.code).toBe(0);
    expect(
      ((await t.call(b.satisfactionSettingsGet, {}, at(team.member))).body.data as SatisfactionSettings).enabled,
    ).toBe(true);
  });

  it('asks every session a page ended, though WeCom refuses one of them', async () => {
    const before = (await surveys()).total;
    const menusBefore = menus().length;
    wecom.failNextEventSend(95007);
    wecom.receive(
      kfText('a1-hello', 'wmPageA', '你好'),
      kfText('b1-hello', 'wmPageB', '你好'),
      kfSessionEnd('a1-end', 'wmPageA', 'CODE-PAGE-A'),
      kfSessionEnd('b1-end', 'wmPageB', 'CODE-PAGE-B'),
    );
    await push();
    const { items, total } = await surveys();
    expect(total).toBe(before + 2);
    const fresh = items.slice(0, 2);
    expect(fresh.map((s) => s.state).sort()).toEqual(['failed', 'sent']);
    expect(fresh.find((s) => s.state === 'failed')?.fail_reason).toContain('95007');
    // The refused ask stopped neither the next one nor the pull.
    expect(menus()).toHaveLength(menusBefore + 1);
    const sent = fresh.find((s) => s.state === 'sent');
    expect(menus().at(-1)).toMatchObject({
      code: 'CODE-PAGE-B',
      msgid: (await expectedMsgid(sent?.id ?? '')).msgid,
    });
  });
});
