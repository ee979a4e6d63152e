import {
  type Envelope,
  type RouteBody,
  type RouteData,
  type RouteDescriptor,
  workflowRunRoutes as r,
  workflowRoutes,
} from '@athena/contract';
import { type FakeOpenAI, startFakeOpenAI } from '@athena/fake-openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTeam, type TeamFixture } from '../../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';

// Built-in templates run for real over HTTP: created from the template in the caller's language
// (zh-CN), run as a draft against the fake model. The fake answers "Echo: <last user message>",
// so an input holding a JSON object comes back as the model's JSON; that is how these runs reach
// the structured-output, extractor and loop paths. Templates that call the internet (web page,
// GitHub) or need a knowledge base are covered by templates.test.ts without a run.

describe('built-in templates, run', () => {
  let fake: FakeOpenAI;
  let t: TestApp;
  let team: TeamFixture;

  async function ok<R extends RouteDescriptor>(route: R, body: RouteBody<R>) {
    const res = await t.call(route.path, body, team.as(team.creator));
    const answer = res.body as Envelope<RouteData<R>>;
    expect(answer.code, `${route.path}: ${answer.msg}`).toBe(0);
    return answer.data;
  }
  async function run(templateId: string, inputs: Record<string, unknown>) {
    const created = await ok(workflowRoutes.create, { name: templateId.slice(0, 40), template_id: templateId });
    return ok(r.runBlocking, { workflow_id: created.id, inputs });
  }

  beforeAll(async () => {
    fake = await startFakeOpenAI({ tokenDelayMs: 0 });
    t = await createTestApp({ env: { ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true' } });
    team = await buildTeam(t, { phonePrefix: '139400000' });
    await t.call(
      '/api/athena/v1/model_key/create',
      { model_name: 'Chat', version: 'fake-chat', base_url: fake.url, api_key: 'sk-fake', purpose: 'chat' },
      team.as(team.creator),
    );
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('answers a question, writes product copy and a customer reply', async () => {
    expect(await run('builtin-llm-answer', { question: '你好' })).toMatchObject({
      result: 'succeeded',
      outputs: { answer: 'Echo: 你好' },
    });
    const copy = await run('builtin-product-copy', { product: '保温杯', features: '12 小时保温', tone: '专业稳重' });
    expect(copy.result).toBe('succeeded');
    expect(copy.outputs.description).toContain('保温杯');
    const reply = await run('builtin-customer-reply', { message: '包裹还没到', tone: '温暖亲切' });
    expect(reply.result).toBe('succeeded');
    expect(reply.outputs.reply).toContain('包裹还没到');
  });

  it('translates in three parallel branches joined by the Jinja template', async () => {
    const summary = await run('builtin-translate-parallel', { text: '早上好' });
    expect(summary.result).toBe('succeeded');
    expect(summary.outputs.all).toBe('### 英语\nEcho: 早上好\n\n### 日语\nEcho: 早上好\n\n### 韩语\nEcho: 早上好');
  });

  it('routes a complaint to its branch and a review by its extracted score', async () => {
    const routed = await run('builtin-route-question', { question: 'complaint' });
    expect(routed).toMatchObject({ result: 'succeeded', outputs: { category: '投诉：客户不满意' } });

    const unhappy = await run('builtin-review-router', { review: '{"score": 1, "issue": "送货太慢"}' });
    expect(unhappy).toMatchObject({ result: 'succeeded', outputs: { score: 1, issue: '送货太慢' } });
    const happy = await run('builtin-review-router', { review: '{"score": 5}' });
    expect(happy.outputs.score).toBe(5);
    const [unhappyRun, happyRun] = await Promise.all(
      [unhappy, happy].map((summary) => ok(r.detail, { run_id: summary.run_id })),
    );
    const ran = (detail: typeof unhappyRun) => detail.nodes.map((node) => node.node_id);
    expect(ran(unhappyRun)).toContain('apologize');
    expect(ran(unhappyRun)).not.toContain('thank');
    expect(ran(happyRun)).toContain('thank');
  });

  it('writes meeting minutes from the summary and the extracted lists', async () => {
    const notes = '{"decisions": ["周五发布"], "action_items": [{"task": "通知销售", "owner": "安娜", "due": "周四"}]}';
    const summary = await run('builtin-meeting-notes', { notes });
    expect(summary.result).toBe('succeeded');
    expect(summary.outputs.minutes).toContain('## 决定\n- 周五发布\n');
    expect(summary.outputs.minutes).toContain('- [ ] 通知销售 — 安娜 (周四)');
  });

  it('labels feedback line by line; a line the model could not label counts as unknown', async () => {
    const feedback = ['{"sentiment": "正面", "topic": "速度", "summary": "很快"}', '这一行不是 JSON'].join('\n');
    const summary = await run('builtin-feedback-batch', { feedback });
    // The second line's labelling failed and the iteration carried on past it.
    expect(summary.result).toBe('has_error');
    expect(summary.outputs.counts).toEqual({ 正面: 1, 未知: 1 });
  });

  it('extracts an order as JSON and lists what is missing', async () => {
    const message = '{"customer_name": "李雷", "phone": "13800000000", "items": [{"name": "茶", "quantity": 2}]}';
    const summary = await run('builtin-order-extract', { message });
    expect(summary).toMatchObject({ result: 'succeeded', outputs: { missing: ['address'], complete: false } });
  });

  it('revises a draft until the review approves, or stops after three rounds', async () => {
    // The fake echoes the review prompt, which holds the requirements: APPROVED there approves at once.
    const approved = await run('builtin-refine-draft', { topic: '一首短诗', requirements: 'APPROVED' });
    expect(approved.result).toBe('succeeded');
    expect(approved.outputs.text).toBe('Echo: 请写：一首短诗\n\n要求：\nAPPROVED');
    const rounds = async (runId: string) =>
      (await ok(r.detail, { run_id: runId })).nodes.filter((node) => node.node_id === 'review').length;
    expect(await rounds(approved.run_id)).toBe(1);

    const revised = await run('builtin-refine-draft', { topic: '一首短诗', requirements: '四行' });
    expect(revised.result).toBe('succeeded');
    expect(revised.outputs.text).toMatch(/^Echo: 草稿：/);
    expect(await rounds(revised.run_id)).toBe(3);
  });
});
