import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { authRoutes, Envelope, RouteData } from '@athena/contract';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** The real entry point (`npm start` runs scripts/start.mjs) on a data directory on disk. */
function start(dataDir: string, webDist: string, port: number) {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      WEB_DIST: webDist,
      LOG_LEVEL: 'info',
      SMS_TEST_NUMBERS: '13800000000:246810',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  return { child, output: () => output };
}

/**
 * A first start creates the database (initdb and every migration): 4 s on a quiet machine, over
 * 20 s while the rest of the suite runs on the same two cores. So the wait is long, and a server
 * that never answers shows what it printed.
 */
const ANSWER_WITHIN_MS = 45_000;

async function call(
  server: { output: () => string },
  port: number,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const deadline = Date.now() + ANSWER_WITHIN_MS;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      return (await res.json()) as Envelope<RouteData<typeof authRoutes.bySms>>;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`server never answered within ${ANSWER_WITHIN_MS} ms; it printed:\n${server.output()}`);
}

const exitOf = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', resolve));

describe('process lifecycle', () => {
  it('shuts down cleanly on SIGTERM and keeps sessions across a restart', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'athena-life-'));
    const webDist = mkdtempSync(path.join(os.tmpdir(), 'athena-web-'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html>');
    const port = 3400 + Math.floor(Math.random() * 500);

    const first = start(dataDir, webDist, port);
    const login = await call(first, port, '/accountv2/login/by_sms', { phone: '13800000000', code: '246810' });
    expect(login.code).toBe(0);
    first.child.kill('SIGTERM');
    expect(await exitOf(first.child)).toBe(0);
    expect(first.output()).toContain('shutting down');

    const second = start(dataDir, webDist, port);
    const info = await call(second, port, '/accountv2/user/info', {}, { token: login.data.login_token });
    expect(info.code).toBe(0);
    second.child.kill('SIGINT');
    expect(await exitOf(second.child)).toBe(0);
  }, 120_000);
});
