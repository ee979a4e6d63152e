import { platformRoutes } from '@athena/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

describe('HTTP envelope', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { BODY_LIMIT_BYTES: '2048' } });
    // A route that crashes, to prove faults are reported without details.
    t.app.log.level = 'silent';
  });
  afterAll(() => t.close());

  const raw = (payload: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    t.app.inject({ method: 'POST', url: '/accountv2/login/send_sms', headers, payload });

  it('answers malformed JSON with 400 and a clean envelope', async () => {
    const res = await raw('{"phone":');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 40012, msg: '请求体不是有效的 JSON。' });
    expect(res.json().request_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers an oversized body with 413 and a clean envelope', async () => {
    const res = await raw(JSON.stringify({ phone: '1'.repeat(5000) }));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 40013 });
  });

  it('answers an unknown API route with 404 and a clean envelope', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/athena/v1/nothing/here', payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 40404 });
  });

  it('answers a wrong content type without a 500', async () => {
    const res = await raw('phone=1', { 'content-type': 'text/plain' });
    expect(res.statusCode).toBe(200);
    expect(res.json().code).toBe(40000);
  });

  it('accepts an empty body where the call takes none', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/athena/v1/platform/info' });
    expect(res.json()).toMatchObject({ code: 0, data: { sms_cooldown_seconds: 15, wechat_poll_interval_ms: 2000 } });
  });

  it('serves localised scenes with scene 5 as the default', async () => {
    const res = await t.call(platformRoutes.sceneList, {}, { language: 'en' });
    expect(res.body.data.default_scene_id).toBe(5);
    expect(res.body.data.items).toContainEqual({
      label: 'Enterprise WeChat customer service',
      type: 5,
      value: '5',
      quntool_host: '',
    });
    // Every scene of the spec but "undefined" (0), each named.
    expect(res.body.data.items.map((scene) => scene.type).sort((a, b) => a - b)).toEqual([
      1, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 10010,
    ]);
    expect(res.body.data.items.every((scene) => scene.label.length > 0)).toBe(true);
  });

  it('publishes an OpenAPI document generated from the contract', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/accountv2/login/send_sms', '/accountv2/user/info', '/api/athena/v1/space/select']),
    );
  });
});
