import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentStreams, type authRoutes, type Envelope, ERRORS, type RouteData } from '@athena/contract';
import { startFakeOpenAI } from '@athena/fake-openai';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** The real entry point (`npm start` runs scripts/start.mjs) on a data directory on disk. */
function start(dataDir: string, webDist: string, port: number, extraEnv: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      WEB_DIST: webDist,
      LOG_LEVEL: 'info',
      SMS_TEST_NUMBERS: '13800000000:246810',
      ...extraEnv,
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

describe('answers when the server stops', () => {
  const API = '/api/athena/v1';

  /** The chat events that have arrived on a stream so far, and a way to wait for one. */
  function readEvents(res: Response) {
    const events: { event: string; data: Record<string, unknown> }[] = [];
    let buffer = '';
    const done = (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        const blocks = buffer.split('\n\n');
        buffer = blocks.pop() ?? '';
        for (const block of blocks) {
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) });
        }
      }
    })().catch(() => {});
    const waitFor = async (name: string) => {
      const deadline = Date.now() + ANSWER_WITHIN_MS;
      while (!events.some((e) => e.event === name)) {
        if (Date.now() > deadline) throw new Error(`no ${name} event; got ${JSON.stringify(events)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    return { events, done, waitFor };
  }

  it('interrupts open answers within the grace period on SIGTERM, and marks a killed process’s answers interrupted with what had arrived', async () => {
    // Slow tokens: an echo of a long question streams for far longer than the test waits.
    const fake = await startFakeOpenAI({ tokenDelayMs: 200 });
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'athena-stop-'));
    const webDist = mkdtempSync(path.join(os.tmpdir(), 'athena-web-'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html>');
    const port = 3900 + Math.floor(Math.random() * 500);
    const env = { ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true', SHUTDOWN_GRACE_MS: '1000' };
    const post = (url: string, body: unknown, headers: Record<string, string>) =>
      fetch(`http://127.0.0.1:${port}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const question = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');

    const first = start(dataDir, webDist, port, env);
    const token = (await call(first, port, '/accountv2/login/by_sms', { phone: '13800000000', code: '246810' })).data
      .login_token;
    const space = (
      (await (await post(`${API}/team/create`, { name: 'Stops' }, { token })).json()) as Envelope<{ id: string }>
    ).data.id;
    const as = { token, 'space-id': space };
    await post(
      `${API}/model_key/create`,
      { model_name: 'Fake', version: 'fake-chat', base_url: fake.url, api_key: 'sk-fake', purpose: 'chat' },
      as,
    );
    const agent = ((await (await post(`${API}/agent/create`, { name: 'Slow' }, as)).json()) as Envelope<{ id: string }>)
      .data.id;
    const messagesOf = async (conversation: string, headers = as) =>
      (
        (await (
          await post(`${API}/agent/conversation/messages`, { conversation_id: conversation }, headers)
        ).json()) as Envelope<{
          items: { role: string; status: string; content: string }[];
        }>
      ).data.items;

    // SIGTERM mid-answer: the listener is told, the answer is kept as interrupted, the process leaves.
    const graceful = readEvents(await post(agentStreams.chat.path, { agent_id: agent, message: question }, as));
    await graceful.waitFor('delta');
    const stopAsked = Date.now();
    first.child.kill('SIGTERM');
    expect(await exitOf(first.child)).toBe(0);
    expect(Date.now() - stopAsked).toBeLessThan(8_000);
    await graceful.done;
    const told = graceful.events.find((e) => e.event === 'error');
    expect(told?.data).toMatchObject({ code: ERRORS.SERVER_RESTARTING.code, kind: 'shutdown' });
    expect(graceful.events.at(-1)).toEqual({ event: 'end', data: { status: 'error' } });
    const firstConversation = String(graceful.events[0].data.conversation_id);

    const second = start(dataDir, webDist, port, env);
    await call(second, port, '/accountv2/user/info', {}, { token });
    const kept = (await messagesOf(firstConversation)).find((m) => m.role === 'assistant');
    expect(kept?.status).toBe('interrupted');
    expect(kept?.content).toMatch(/^Echo: word0/);

    // kill -9 mid-answer: nothing gets to say goodbye; what was written while streaming survives.
    const killed = readEvents(await post(agentStreams.chat.path, { agent_id: agent, message: question }, as));
    await killed.waitFor('delta');
    await new Promise((resolve) => setTimeout(resolve, 6_500)); // past one progress write
    second.child.kill('SIGKILL');
    await exitOf(second.child);
    await killed.done;
    const secondConversation = String(killed.events[0].data.conversation_id);

    const third = start(dataDir, webDist, port, env);
    await call(third, port, '/accountv2/user/info', {}, { token });
    const orphan = (await messagesOf(secondConversation)).find((m) => m.role === 'assistant');
    expect(orphan?.status).toBe('interrupted');
    expect(orphan?.content).toMatch(/^Echo: word0 word1/);
    third.child.kill('SIGTERM');
    expect(await exitOf(third.child)).toBe(0);
    await fake.close();
  }, 180_000);
});
