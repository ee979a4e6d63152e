import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

describe('serving the built web app', () => {
  let t: TestApp;
  beforeAll(async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'athena-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
    t = await createTestApp({
      env: { WEB_DIST: dist, FRAME_ANCESTORS: 'https://crm.example.com, https://*.example.org' },
    });
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('serves the SPA at / and at any client route (history fallback)', async () => {
    for (const url of ['/', '/dashboard', '/knowledge/detail/42', '/invite/abc?x=1']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('answers HEAD on a page route as GET does, without the body (link checkers, uptime monitors)', async () => {
    for (const url of ['/', '/dashboard', '/knowledge/detail/42']) {
      const res = await t.app.inject({ method: 'HEAD', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.body, url).toBe('');
    }
    expect((await t.app.inject({ method: 'HEAD', url: '/api/athena/v1/unknown' })).statusCode).toBe(404);
  });

  it('serves hashed assets as immutable', async () => {
    const res = await get('/assets/app-abc123.js');
    expect(res.body).toBe('console.log(1)');
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('answers unknown API paths with the JSON envelope, not the SPA', async () => {
    const res = await get('/api/athena/v1/unknown');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 40404 });
  });

  it('sends the security headers: a CSP, nosniff, a referrer policy, and no framing but for embeddable pages', async () => {
    for (const url of ['/', '/dashboard', '/api/athena/v1/unknown', '/assets/app-abc123.js']) {
      const res = await get(url);
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("default-src 'self'");
      expect(csp, url).toContain("script-src 'self'");
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
    }
    for (const url of ['/only-chat-history', '/only-user-profile?scene=5', '/share/AbC123']) {
      const csp = String((await get(url)).headers['content-security-policy']);
      expect(csp, url).toContain('frame-ancestors https://crm.example.com https://*.example.org');
    }
  });

  it('sends them on answers that take over the raw response too (tus uploads)', async () => {
    const res = await t.app.inject({ method: 'OPTIONS', url: '/api/athena/v1/media/upload/' });
    expect(res.headers['tus-version']).toBe('1.0.0');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });
});

describe('security headers behind https', () => {
  it('adds HSTS when the public address is https', async () => {
    const t = await createTestApp({ env: { PUBLIC_URL: 'https://athena.example.com' } });
    try {
      const res = await t.app.inject({ method: 'POST', url: '/api/athena/v1/platform/info', payload: {} });
      expect(res.headers['strict-transport-security']).toBe('max-age=15552000');
    } finally {
      await t.close();
    }
  });
});
