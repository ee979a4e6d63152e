import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeWecomApi, startFakeWecomApi } from '../../testing/fake-wecom-api.ts';
import { createWecomKfApi, type KfSyncedMessage, WecomApiError } from './kf-api.ts';

const KF = 'wkFAKE0001';
const text = (index: number, openKfId = KF): KfSyncedMessage => ({
  msgid: `m${index}`,
  open_kfid: openKfId,
  external_userid: 'wmCustomer1',
  send_time: 1_700_000_000 + index,
  origin: 3,
  msgtype: 'text',
  text: { content: `hello ${index}` },
});

describe('WeCom customer-service API client against the fake WeCom', () => {
  let fake: FakeWecomApi;
  beforeEach(async () => {
    fake = await startFakeWecomApi();
  });
  afterEach(async () => {
    await fake.close();
  });
  const api = () => createWecomKfApi({ apiBase: fake.url, corpId: fake.corpId, secret: fake.secret });

  /** Pulls like the ingestion will: each page stored with its cursor. */
  async function pull(client: ReturnType<typeof api>, cursor: string) {
    const pages: { ids: string[]; cursor: string }[] = [];
    const last = await client.pullNew({ cursor, openKfId: KF, syncToken: 'from-the-push' }, async (messages, next) => {
      pages.push({ ids: messages.map((message) => message.msgid), cursor: next });
    });
    return { pages, last };
  }

  it('pulls page after page until has_more is 0, an empty page with has_more included', async () => {
    fake.setPageSize(2);
    fake.receive(text(1), text(2), text(3), text(4), text(5), text(1, 'wkOTHER'));
    fake.emptyPagesFirst(1);
    const client = api();
    const { pages, last } = await pull(client, '');
    expect(pages.map((page) => page.ids)).toEqual([[], ['m1', 'm2'], ['m3', 'm4'], ['m5']]);
    expect(last).toBe(pages.at(-1)?.cursor);
    const asked = fake.requests.filter((request) => request.path === '/cgi-bin/kf/sync_msg');
    expect(asked[0]?.body).toMatchObject({ open_kfid: KF, token: 'from-the-push', limit: 1000 });

    // Resuming from the stored cursor brings only what came since.
    fake.receive(text(6));
    expect((await pull(client, last)).pages.map((page) => page.ids)).toEqual([['m6']]);
    expect((await pull(client, '')).pages.flatMap((page) => page.ids)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5', 'm6']);
  });

  it('stops a pull whose page cannot be stored, so the next pull resumes at that page', async () => {
    fake.setPageSize(2);
    fake.receive(text(1), text(2), text(3));
    const client = api();
    let stored = '';
    await expect(
      client.pullNew({ cursor: '', openKfId: KF }, async (messages, next) => {
        if (messages.some((message) => message.msgid === 'm3')) throw new Error('disk full');
        stored = next;
      }),
    ).rejects.toThrow('disk full');
    expect((await pull(client, stored)).pages.map((page) => page.ids)).toEqual([['m3']]);
  });

  it('keeps one access token, and replaces an expired one once', async () => {
    const client = api();
    fake.receive(text(1));
    await pull(client, '');
    await client.sendText({ toUser: 'wmCustomer1', openKfId: KF, msgid: 'ours-1', content: 'hi' });
    expect(fake.tokenRequests).toBe(1);
    fake.expireToken();
    await pull(client, '');
    expect(fake.tokenRequests).toBe(2);
  });

  it('sends a text reply with our own msgid, and reports WeCom’s refusals with their codes', async () => {
    const client = api();
    fake.receive(text(1));
    expect(await client.sendText({ toUser: 'wmCustomer1', openKfId: KF, msgid: 'ours-1', content: '您好' })).toEqual({
      msgid: 'ours-1',
    });
    expect(fake.sent).toEqual([
      { touser: 'wmCustomer1', open_kfid: KF, msgid: 'ours-1', msgtype: 'text', text: { content: '您好' } },
    ]);
    const refused = await client
      .sendText({ toUser: 'wmCustomer1', openKfId: KF, msgid: 'ours-2', content: '' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(WecomApiError);
    expect((refused as WecomApiError).errcode).toBe(44004);
  });

  it('sends only while nobody serves the customer: not before they write, nor once a servicer or the queue has them', async () => {
    const client = api();
    const send = (msgid: string) =>
      client
        .sendText({ toUser: 'wmCustomer1', openKfId: KF, msgid, content: '您好' })
        .then(() => 0)
        .catch((error: unknown) => (error as WecomApiError).errcode);
    const changed = (index: number, change: Record<string, unknown>): KfSyncedMessage => ({
      msgid: `e${index}`,
      open_kfid: KF,
      send_time: 1_700_000_100 + index,
      origin: 4,
      msgtype: 'event',
      event: { event_type: 'session_status_change', open_kfid: KF, external_userid: 'wmCustomer1', ...change },
    });
    // No session yet: the customer has not written.
    expect(await send('s1')).toBe(95018);
    fake.receive(text(1));
    expect(fake.serviceState(KF, 'wmCustomer1')).toBe(0);
    expect(await send('s2')).toBe(0);
    // A servicer takes it in WeCom's client, then ends it: the API may not speak over them, nor after.
    fake.receive(changed(1, { change_type: 1, new_servicer_userid: 'lisi' }));
    expect(await send('s3')).toBe(95018);
    fake.receive(changed(2, { change_type: 3, msg_code: 'END' }));
    expect(fake.serviceState(KF, 'wmCustomer1')).toBe(4);
    expect(await send('s4')).toBe(95018);
    // The customer writes again: a new session, and the queue for a person ends the API's turn again.
    fake.receive(text(2));
    expect(await send('s5')).toBe(0);
    await client.transferToPool({ openKfId: KF, externalUserId: 'wmCustomer1' });
    expect(fake.serviceState(KF, 'wmCustomer1')).toBe(2);
    expect(await send('s6')).toBe(95018);
    // Another customer's session is their own.
    fake.receive({ ...text(3), external_userid: 'wmCustomer2' });
    expect(await client.sendText({ toUser: 'wmCustomer2', openKfId: KF, msgid: 's7', content: '您好' })).toEqual({
      msgid: 's7',
    });
    expect(fake.sent.map((sent) => sent.msgid)).toEqual(['s2', 's5', 's7']);
  });

  it('reads customers 100 ids a call, unknown ids apart', async () => {
    const ids = Array.from({ length: 150 }, (_, index) => `wm${index}`);
    for (const id of ids.slice(0, 120)) fake.setCustomer({ external_userid: id, nickname: `客户${id}` });
    const { customers, invalid } = await api().customers(ids);
    expect(customers).toHaveLength(120);
    expect(customers[0]).toMatchObject({ external_userid: 'wm0', nickname: '客户wm0' });
    expect(invalid).toEqual(ids.slice(120));
    const calls = fake.requests.filter((request) => request.path === '/cgi-bin/kf/customer/batchget');
    expect(calls.map((call) => (call.body as { external_userid_list: string[] }).external_userid_list.length)).toEqual([
      100, 50,
    ]);
  });

  it('reports a wrong secret, a bad cursor and an answer it cannot read, never echoing secrets', async () => {
    const wrong = createWecomKfApi({ apiBase: fake.url, corpId: fake.corpId, secret: 'not-it' });
    const denied = await pull(wrong, '').catch((error: unknown) => error);
    expect(denied).toMatchObject({ name: 'WecomApiError', errcode: 40001 });
    expect(String((denied as Error).message)).not.toContain('not-it');

    const badCursor = await pull(api(), 'garbage').catch((error: unknown) => error);
    expect(badCursor).toMatchObject({ errcode: 95009 });

    fake.receive({ ...text(1), msgid: '' });
    await expect(pull(api(), '')).rejects.toThrow(/not what its documentation says/);
  });
});
