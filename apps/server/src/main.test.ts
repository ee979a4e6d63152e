import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Agent, agentRoutes, agentStreams, ERRORS, type RouteData, type StreamEvent } from '@athena/contract';
import { startFakeOpenAI } from '@athena/fake-openai';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSse } from './modules/agent/agent-test-helpers.ts';
import { type AthenaProcess, startAthena } from './testing/athena-process.ts';

/** Data directories and processes a test made: removed and stopped whatever the test's outcome. */
const dataDirs: string[] = [];
const running = new Set<AthenaProcess>();
afterEach(async () => {
  await Promise.all([...running].map((server) => server.stop('SIGKILL')));
  running.clear();
  for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function newDataDir() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'athena-life-'));
  dataDirs.push(dir);
  return dir;
}

/** The real entry point (`npm start` runs scripts/start.mjs) on a data directory on disk. */
async function start(dataDir: string, env: Record<string, string> = {}) {
  const server = await startAthena('athena', env, { dataDir });
  running.add(server);
  return server;
}

async function stop(server: AthenaProcess, signal?: NodeJS.Signals) {
  running.delete(server);
  return server.stop(signal);
}

describe('process lifecycle', () => {
  it('shuts down cleanly on SIGTERM and keeps sessions across a restart', async () => {
    const dataDir = newDataDir();
    const first = await start(dataDir);
    const token = await first.signIn('13800000000');
    expect(await stop(first)).toBe(0);
    expect(first.output()).toContain('shutting down');

    const second = await start(dataDir);
    expect((await second.call('/accountv2/user/info', {}, { token })).code).toBe(0);
    expect(await stop(second, 'SIGINT')).toBe(0);
  }, 120_000);
});

describe('answers when the server stops', () => {
  type ChatEvent = StreamEvent<typeof agentStreams.chat>;

  /** A chat stream read as it arrives: the events so far, a wait for one, and its end. */
  function readEvents(res: Response) {
    const events: ChatEvent[] = [];
    let buffer = '';
    const done = (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        const end = buffer.lastIndexOf('\n\n');
        if (end < 0) continue;
        events.push(...parseSse(agentStreams.chat, buffer.slice(0, end + 2)));
        buffer = buffer.slice(end + 2);
      }
    })().catch(() => {}); // a killed server cuts the body; what arrived is what counts
    const waitFor = async (name: ChatEvent['event']) => {
      const deadline = Date.now() + 30_000;
      while (!events.some((e) => e.event === name)) {
        if (Date.now() > deadline) throw new Error(`no ${name} event; got ${JSON.stringify(events)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    return { events, done, waitFor };
  }

  it('stops within the 10 s Docker and systemd give before SIGKILL, with the default grace, while an answer streams', async () => {
    // An answer that would stream for far longer than any stop may take.
    const fake = await startFakeOpenAI({ tokenDelayMs: 200 });
    try {
      const server = await start(newDataDir(), { ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true' });
      const token = await server.signIn('13800000001');
      const space = (await server.call<{ id: string }>('/api/athena/v1/team/create', { name: 'Stops' }, { token })).data
        .id;
      const as = { token, 'space-id': space };
      const key = { model_name: 'Fake', version: 'fake-chat', base_url: fake.url, api_key: 'sk-fake', purpose: 'chat' };
      await server.call('/api/athena/v1/model_key/create', key, as);
      const agent = (await server.call<Agent>('/api/athena/v1/agent/create', { name: 'Slow' }, as)).data.id;
      const question = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
      const answer = await fetch(`${server.url}${agentStreams.chat.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...as },
        body: JSON.stringify({ agent_id: agent, message: question }),
      }).then(readEvents);
      await answer.waitFor('delta');

      const stopAsked = Date.now();
      const exitCode = await stop(server);
      const took = Date.now() - stopAsked;
      const log = server.output().slice(-3_000);
      expect(exitCode, log).toBe(0);
      expect(took, log).toBeLessThan(10_000);
      // The default grace ran out before the answer did: its reader was told, not cut off.
      await answer.done;
      expect(answer.events.find((e) => e.event === 'error')?.data).toMatchObject({
        code: ERRORS.SERVER_RESTARTING.code,
      });
      expect(answer.events.at(-1)).toEqual({ event: 'end', data: { status: 'error' } });
    } finally {
      await fake.close();
    }
  }, 120_000);

  it('interrupts open answers within the grace period on SIGTERM, and marks a killed process’s answers interrupted with what had arrived', async () => {
    // Slow tokens: an echo of a long question streams for far longer than the test waits.
    const fake = await startFakeOpenAI({ tokenDelayMs: 200 });
    try {
      const dataDir = newDataDir();
      const env = { ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true', SHUTDOWN_GRACE_MS: '1000' };
      const question = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');

      const first = await start(dataDir, env);
      const token = await first.signIn('13800000000');
      const space = (await first.call<{ id: string }>('/api/athena/v1/team/create', { name: 'Stops' }, { token })).data
        .id;
      const as = { token, 'space-id': space };
      const key = { model_name: 'Fake', version: 'fake-chat', base_url: fake.url, api_key: 'sk-fake', purpose: 'chat' };
      await first.call('/api/athena/v1/model_key/create', key, as);
      const agent = (await first.call<Agent>('/api/athena/v1/agent/create', { name: 'Slow' }, as)).data.id;
      const ask = (server: AthenaProcess) =>
        fetch(`${server.url}${agentStreams.chat.path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...as },
          body: JSON.stringify({ agent_id: agent, message: question }),
        }).then(readEvents);
      const answerIn = async (server: AthenaProcess, events: ChatEvent[]) => {
        const started = events.find((e) => e.event === 'start')?.data as { conversation_id: string };
        const messages = await server.call<RouteData<typeof agentRoutes.messages>>(
          agentRoutes.messages.path,
          { conversation_id: started.conversation_id },
          as,
        );
        return messages.data.items.find((message) => message.role === 'assistant');
      };

      // SIGTERM mid-answer: the listener is told, the answer is kept as interrupted, the process leaves.
      const graceful = await ask(first);
      await graceful.waitFor('delta');
      const stopAsked = Date.now();
      expect(await stop(first)).toBe(0);
      // Grace 1 s, then the interrupted stream's last events; generous for a loaded machine.
      expect(Date.now() - stopAsked).toBeLessThan(15_000);
      await graceful.done;
      const told = graceful.events.find((e) => e.event === 'error');
      expect(told?.data).toMatchObject({ code: ERRORS.SERVER_RESTARTING.code, kind: 'shutdown' });
      expect(graceful.events.at(-1)).toEqual({ event: 'end', data: { status: 'error' } });

      const second = await start(dataDir, env);
      expect(await answerIn(second, graceful.events)).toMatchObject({
        status: 'interrupted',
        content: expect.stringMatching(/^Echo: word0/),
      });

      // kill -9 mid-answer: nothing gets to say goodbye; what was written while streaming survives.
      const killed = await ask(second);
      await killed.waitFor('delta');
      // Until the answer holds more than its first word, which a progress write (every 5 s) keeps.
      await new Promise((resolve) => setTimeout(resolve, 6_500));
      await stop(second, 'SIGKILL');
      await killed.done;

      const third = await start(dataDir, env);
      expect(await answerIn(third, killed.events)).toMatchObject({
        status: 'interrupted',
        content: expect.stringMatching(/^Echo: word0 word1/),
      });
      expect(await stop(third)).toBe(0);
    } finally {
      await fake.close();
    }
  }, 180_000);
});
