import type { customBusinessRoutes, RequestDetail, RouteData } from '@athena/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';
import { type CustomBusinessFixture, setUpCustomBusiness, validRequest } from './cb-fixture.ts';

type List = RouteData<typeof customBusinessRoutes.list>;
type OperatorList = RouteData<typeof customBusinessRoutes.operatorList>;

const OK = 0;
const SPACE_GONE = 16023;
const FORBIDDEN = 40300;
const NOT_FOUND = 40400;
const CONFLICT = 40089;

describe('custom AI business requests', () => {
  let f: CustomBusinessFixture;
  beforeAll(async () => {
    f = await setUpCustomBusiness();
  });
  afterAll(() => f.close());

  const create = (who: 'creator' | 'admin' | 'member' = 'member', extra: Record<string, unknown> = {}) =>
    f.ok('create', validRequest(extra), f.as(who));

  describe('validation, with the contract messages in each language', () => {
    const past = '2020-01-01';
    it.each([
      ['zh-CN', { title: '   ' }, 40080, '请填写需求标题（最多 100 个字符）。'],
      ['en', { title: 'x'.repeat(101) }, 40080, 'Please enter a title (at most 100 characters).'],
      ['zh-CN', { requirements: '太短了' }, 40081, '请用 10 到 5000 个字符描述您的需求。'],
      ['en', { requirements: 'r'.repeat(5001) }, 40081, 'Please describe your requirements in 10 to 5,000 characters.'],
      ['zh-TW', { contact_name: '' }, 40082, '請填寫聯絡人姓名（最多 50 個字元）。'],
      ['zh-CN', { contact_phone: '', contact_email: '' }, 40083, '请至少填写手机号或邮箱中的一项，以便我们联系您。'],
      ['en', { contact_phone: null }, 40083, 'Please enter a mobile number or an email address so we can reach you.'],
      ['zh-CN', { contact_phone: '12345678901' }, 40002, '请输入正确的 11 位中国大陆手机号。'],
      ['en', { contact_phone: '', contact_email: 'not-an-email' }, 40084, 'Please enter a valid email address.'],
      ['zh-CN', { expected_date: past }, 40085, '期望日期需为有效日期，且不能早于今天。'],
      ['en', { expected_date: '2030-02-30' }, 40085, 'The expected date must be a valid date, today or later.'],
      ['en', { attachment_ids: ['1', '2', '3', '4', '5', '6'] }, 40088, 'You can add at most 5 attachments.'],
    ])('%s: %j → %i', async (language, extra, code, msg) => {
      const before = (await f.ok<List>('list', {}, f.as('member'))).total;
      const result = await f.call('create', validRequest(extra), f.as('member', undefined, language));
      expect(result).toMatchObject({ code, msg });
      expect((await f.ok<List>('list', {}, f.as('member'))).total).toBe(before);
    });

    it('names the field when a choice is not one of the options', async () => {
      const result = await f.call('create', validRequest({ budget_range: 'a lot' }), f.as('member', undefined, 'en'));
      expect(result.code).toBe(40000);
      expect(result.msg).toContain('budget_range');
    });

    it('trims text, accepts an email instead of a phone and keeps an expected date', async () => {
      const request = await create('member', {
        title: '  知识库问答  ',
        contact_phone: '',
        contact_email: ' ops@example.com ',
        expected_date: '2031-06-30',
        scenario: 'knowledge_qa',
      });
      expect(request).toMatchObject({
        title: '知识库问答',
        contact_phone: null,
        contact_email: 'ops@example.com',
        expected_date: '2031-06-30',
        status: 'submitted',
        quote_fen: null,
        can_cancel: true,
        can_accept: false,
        space: null,
      });
    });
  });

  describe('the space list and detail', () => {
    it("lists the current space's requests newest first, with status and requester", async () => {
      const first = await create('member', { title: 'First' });
      const second = await create('admin', { title: 'Second' });
      const list = await f.ok<List>('list', { page_size: 100 }, f.as('creator'));
      const ids = list.items.map((item) => item.id);
      expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
      expect(list.items.find((item) => item.id === first.id)).toMatchObject({
        status: 'submitted',
        requester: { id: f.team.ids.member },
        attachment_count: 0,
      });
      expect(list.is_operator).toBe(false);
      const submitted = await f.ok<List>('list', { status: 'submitted', page_size: 100 }, f.as('member'));
      expect(submitted.items.every((item) => item.status === 'submitted')).toBe(true);
    });

    it('starts the history with the submission', async () => {
      const request = await create();
      const detail = await f.ok('get', { id: request.id }, f.as('admin'));
      expect(detail.history).toEqual([
        expect.objectContaining({
          from_status: null,
          to_status: 'submitted',
          by_operator: false,
          actor: expect.objectContaining({ id: f.team.ids.member }),
        }),
      ]);
    });

    it("keeps another space's requests out of the list and answers their ids like missing ones", async () => {
      const request = await create();
      const strangerList = await f.ok<List>('list', {}, f.as('stranger', f.team.strangerTeamId));
      expect(strangerList.items.map((item) => item.id)).not.toContain(request.id);
      for (const action of ['get', 'cancel', 'accept']) {
        const foreign = await f.call(action, { id: request.id }, f.as('stranger', f.team.strangerTeamId));
        const missing = await f.call(action, { id: '00000000-0000-4000-8000-000000000000' }, f.as('member'));
        const malformed = await f.call(action, { id: 'nope' }, f.as('member'));
        expect([foreign.code, missing.code, malformed.code]).toEqual([NOT_FOUND, NOT_FOUND, NOT_FOUND]);
        expect(foreign.msg).toBe(missing.msg);
      }
    });

    it('answers 16023 for a team the caller is not in, and without a space header', async () => {
      const request = await create();
      for (const [action, body] of [
        ['list', {}],
        ['get', { id: request.id }],
        ['create', validRequest()],
        ['cancel', { id: request.id }],
      ] as const) {
        expect((await f.call(action, body, f.as('stranger'))).code, action).toBe(SPACE_GONE);
        expect((await f.call(action, body, f.as('member', null))).code, action).toBe(SPACE_GONE);
      }
    });
  });

  describe('permissions: who may withdraw a request or accept its quote', () => {
    const quoted = async () => {
      const request = await create('member');
      await f.ok('operator/update_status', { id: request.id, status: 'in_review' }, f.as('operator', null));
      await f.ok(
        'operator/update_status',
        { id: request.id, status: 'quoted', quote_fen: 880000 },
        f.as('operator', null),
      );
      return request;
    };

    it.each([
      ['member (the requester)', 'member', OK],
      ['admin', 'admin', OK],
      ['creator', 'creator', OK],
    ] as const)('%s may cancel', async (_name, who, code) => {
      const request = await create('member');
      expect((await f.call('cancel', { id: request.id }, f.as(who))).code).toBe(code);
    });

    it('another plain member may view but not cancel or accept', async () => {
      const byAdmin = await create('admin');
      const detail = await f.ok('get', { id: byAdmin.id }, f.as('member'));
      expect(detail).toMatchObject({ can_cancel: false, can_accept: false });
      expect((await f.call('cancel', { id: byAdmin.id }, f.as('member'))).code).toBe(FORBIDDEN);

      const quotedByMember = await quoted();
      // The admin was not the requester but has team authority.
      expect(await f.ok('get', { id: quotedByMember.id }, f.as('admin'))).toMatchObject({ can_accept: true });
      expect((await f.call('accept', { id: quotedByMember.id }, f.as('stranger', f.team.strangerTeamId))).code).toBe(
        NOT_FOUND,
      );
      expect((await f.call('accept', { id: quotedByMember.id }, f.as('stranger'))).code).toBe(SPACE_GONE);
    });

    it.each([
      ['requester', 'member', OK],
      ['creator', 'creator', OK],
    ] as const)('the %s may accept a quote', async (_name, who, code) => {
      const request = await quoted();
      expect((await f.call('accept', { id: request.id }, f.as(who))).code).toBe(code);
    });
  });

  describe('the status machine', () => {
    it('goes submitted → in review → quoted → accepted, recording who, when, from, to and notes', async () => {
      const request = await create('member');
      const op = f.as('operator', null);
      const reviewing = await f.ok(
        'operator/update_status',
        { id: request.id, status: 'in_review', note: '已安排方案顾问' },
        op,
      );
      expect(reviewing).toMatchObject({
        status: 'in_review',
        space: { id: f.team.teamId, name: 'Custom business team' },
      });
      await f.ok(
        'operator/update_status',
        { id: request.id, status: 'quoted', quote_fen: 1_280_000, note: '含部署与三个月维护' },
        op,
      );

      const seen = await f.ok('get', { id: request.id }, f.as('member'));
      expect(seen).toMatchObject({
        status: 'quoted',
        quote_fen: 1_280_000,
        quote_note: '含部署与三个月维护',
        can_accept: true,
        can_cancel: false,
      });
      const quoteChange = seen.history.at(-1);
      // The requester's side sees "the Athena team", not the operator's own account.
      expect(quoteChange).toMatchObject({
        from_status: 'in_review',
        to_status: 'quoted',
        by_operator: true,
        actor: null,
        quote_fen: 1_280_000,
      });

      const accepted = await f.ok('accept', { id: request.id }, f.as('member'));
      expect(accepted).toMatchObject({ status: 'accepted', quote_fen: 1_280_000, can_accept: false });
      expect(accepted.history.map((h: RequestDetail['history'][number]) => [h.from_status, h.to_status])).toEqual([
        [null, 'submitted'],
        ['submitted', 'in_review'],
        ['in_review', 'quoted'],
        ['quoted', 'accepted'],
      ]);
      expect(accepted.history[1]).toMatchObject({ note: '已安排方案顾问' });
      for (const change of accepted.history) expect(Date.parse(change.created_at)).not.toBeNaN();

      // The operator's view names the operator.
      const operatorView = await f.ok('operator/get', { id: request.id }, op);
      expect(operatorView.history[2].actor).toMatchObject({ nickname: expect.any(String) });
    });

    it('refuses invalid transitions with a clear, localised message and changes nothing', async () => {
      const request = await create('member');
      const op = (language: string) => f.as('operator', null, language);
      expect(
        await f.call('operator/update_status', { id: request.id, status: 'quoted', quote_fen: 100 }, op('zh-CN')),
      ).toMatchObject({
        code: CONFLICT,
        msg: '该需求当前为「已提交」，不能变更为「已报价」。请刷新后查看最新状态。',
      });
      expect(await f.call('accept', { id: request.id }, f.as('member', undefined, 'en'))).toMatchObject({
        code: CONFLICT,
        msg: 'This request is now “Submitted” and cannot change to “Accepted”. Refresh to see its latest status.',
      });
      await f.ok('operator/update_status', { id: request.id, status: 'in_review' }, op('en'));
      const noAmount = await f.call('operator/update_status', { id: request.id, status: 'quoted' }, op('en'));
      expect(noAmount.code).toBe(40000);
      expect(noAmount.msg).toContain('quote_fen');
      const amountWithoutQuote = await f.call(
        'operator/update_status',
        { id: request.id, status: 'closed', quote_fen: 5 },
        op('en'),
      );
      expect(amountWithoutQuote.code).toBe(40000);
      await f.ok('operator/update_status', { id: request.id, status: 'quoted', quote_fen: 500_000 }, op('en'));
      expect(await f.call('cancel', { id: request.id }, f.as('member', undefined, 'zh-TW'))).toMatchObject({
        code: CONFLICT,
        msg: '該需求目前為「已報價」，不能變更為「已關閉」。請重新整理後查看最新狀態。',
      });
      const after = await f.ok('get', { id: request.id }, f.as('member'));
      expect(after.status).toBe('quoted');
      expect(after.history).toHaveLength(3);
    });

    it('lets an operator withdraw a quote to revise it; the old amount stays in the history', async () => {
      const request = await create('member');
      const op = f.as('operator', null);
      await f.ok('operator/update_status', { id: request.id, status: 'in_review' }, op);
      await f.ok('operator/update_status', { id: request.id, status: 'quoted', quote_fen: 900_000 }, op);
      const revising = await f.ok(
        'operator/update_status',
        { id: request.id, status: 'in_review', note: '客户调整范围' },
        op,
      );
      expect(revising).toMatchObject({ status: 'in_review', quote_fen: null, quote_note: null });
      expect(revising.history.find((h) => h.to_status === 'quoted')?.quote_fen).toBe(900_000);
    });

    it('treats accepted and closed as final', async () => {
      const request = await create('member');
      await f.ok('cancel', { id: request.id, note: '预算调整' }, f.as('member'));
      const closed = await f.ok('get', { id: request.id }, f.as('member'));
      expect(closed).toMatchObject({ status: 'closed', can_cancel: false });
      expect(closed.history.at(-1)).toMatchObject({
        from_status: 'submitted',
        to_status: 'closed',
        note: '预算调整',
        by_operator: false,
      });
      for (const status of ['in_review', 'quoted', 'closed']) {
        const result = await f.call(
          'operator/update_status',
          { id: request.id, status, quote_fen: status === 'quoted' ? 1 : undefined },
          f.as('operator', null),
        );
        expect(result.code, status).toBe(CONFLICT);
      }
      expect((await f.call('cancel', { id: request.id }, f.as('member'))).code).toBe(CONFLICT);
    });

    it('lets exactly one of two simultaneous decisions win', async () => {
      const request = await create('member');
      const op = f.as('operator', null);
      await f.ok('operator/update_status', { id: request.id, status: 'in_review' }, op);
      await f.ok('operator/update_status', { id: request.id, status: 'quoted', quote_fen: 10_000 }, op);
      const results = await Promise.all([
        f.call('accept', { id: request.id }, f.as('member')),
        f.call('operator/update_status', { id: request.id, status: 'closed' }, op),
        f.call('accept', { id: request.id }, f.as('creator')),
      ]);
      expect(results.filter((r) => r.code === OK)).toHaveLength(1);
      expect(results.filter((r) => r.code === CONFLICT)).toHaveLength(2);
      const final = await f.ok('get', { id: request.id }, f.as('member'));
      expect(final.history).toHaveLength(4);
    });
  });

  describe('operator-only routes', () => {
    it.each(['creator', 'admin', 'member', 'stranger'] as const)('refuse the %s', async (who) => {
      const request = await create('member');
      for (const [action, body] of [
        ['operator/list', {}],
        ['operator/get', { id: request.id }],
        ['operator/update_status', { id: request.id, status: 'in_review' }],
      ] as const) {
        const space = who === 'stranger' ? f.team.strangerTeamId : f.team.teamId;
        expect((await f.call(action, body, f.as(who, space))).code, action).toBe(FORBIDDEN);
      }
      expect((await f.ok('get', { id: request.id }, f.as('member'))).status).toBe('submitted');
    });

    it('list every space, newest first, filtered by status or keyword; the list tells the web who is an operator', async () => {
      const mine = await create('member', { title: 'Operator visible' });
      const theirs = await f.ok(
        'create',
        validRequest({ title: 'From the other team' }),
        f.as('stranger', f.team.strangerTeamId),
      );
      const op = f.as('operator', null);
      const all = await f.ok<OperatorList>('operator/list', { page_size: 100 }, op);
      const ids = all.items.map((item) => item.id);
      expect(ids.indexOf(theirs.id)).toBeLessThan(ids.indexOf(mine.id));
      expect(all.items.find((item) => item.id === theirs.id)?.space).toEqual({
        id: f.team.strangerTeamId,
        name: 'Other',
      });
      expect(all.total).toBeGreaterThanOrEqual(2);

      const byKeyword = await f.ok<OperatorList>('operator/list', { keyword: 'other team' }, op);
      expect(byKeyword.items.map((item) => item.id)).toEqual([theirs.id]);
      const bySpaceName = await f.ok<OperatorList>('operator/list', { keyword: 'Custom business', page_size: 100 }, op);
      expect(bySpaceName.items.every((item) => item.space.id === f.team.teamId)).toBe(true);
      const quotedOnly = await f.ok<OperatorList>('operator/list', { status: 'accepted' }, op);
      expect(quotedOnly.items.every((item) => item.status === 'accepted')).toBe(true);

      // In their own (personal) space the operator is told they are one.
      const operatorSpaceList = await f.t.call<{ items: { id: string }[] }>(
        '/api/athena/v1/space/list',
        {},
        { token: f.operator },
      );
      const personal = operatorSpaceList.body.data.items[0].id;
      expect((await f.ok<List>('list', {}, f.as('operator', personal))).is_operator).toBe(true);
    });

    it('answers an unknown id like a missing one', async () => {
      const op = f.as('operator', null);
      expect((await f.call('operator/get', { id: '00000000-0000-4000-8000-000000000000' }, op)).code).toBe(NOT_FOUND);
      expect((await f.call('operator/update_status', { id: 'x', status: 'closed' }, op)).code).toBe(NOT_FOUND);
    });
  });
});

describe('OPERATOR_PHONES', () => {
  it('takes a comma-separated list and refuses anything that is not a mainland mobile number', () => {
    expect([...loadConfig({ OPERATOR_PHONES: ' 13800000000 ,13900000000,' }).OPERATOR_PHONES]).toEqual([
      '13800000000',
      '13900000000',
    ]);
    expect(loadConfig({}).OPERATOR_PHONES.size).toBe(0);
    expect(() => loadConfig({ OPERATOR_PHONES: '13800000000,12345' })).toThrow(ConfigError);
  });
});
