import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openTestDatabase } from '../testing/test-database.ts';
import type { Database } from './db/database.ts';
import { createEvents, EVENTS_CHANNEL } from './events.ts';

// Test-only events, added to the one map the way a module adds its own.
declare module './events.ts' {
  interface DomainEvents {
    'test.happened': { n: number };
  }
  interface BroadcastEvents {
    'test.told': { id: string };
  }
}
const told = z.object({ id: z.string() });

function recordingLog() {
  const lines: { level: string; object: Record<string, unknown>; message: string }[] = [];
  const at =
    (level: string) =>
    (object: Record<string, unknown>, message: string): void =>
      void lines.push({ level, object, message });
  const log = { warn: at('warn'), error: at('error'), info: at('info'), debug: at('debug') };
  return { lines, log: log as never };
}

describe('events', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  /** A hub as one process has it; two on one database are two processes. */
  const hubOn = async (log = recordingLog()) => {
    const events = createEvents({
      notify: (payload) => database.notify(EVENTS_CHANNEL, payload),
      listen: (onMessage) => database.listen(EVENTS_CHANNEL, onMessage),
      log: log.log,
    });
    await events.start();
    return events;
  };

  it('runs reactions in order, and one that fails is logged without failing the emitter or the next', async () => {
    const log = recordingLog();
    const events = await hubOn(log);
    const ran: string[] = [];
    events.react('test.happened', { name: 'first', run: ({ n }) => void ran.push(`first ${n}`) });
    events.react('test.happened', {
      name: 'breaks-when-test-happened',
      run: () => Promise.reject(new Error('boom')),
    });
    events.react('test.happened', { name: 'third', run: async ({ n }) => void ran.push(`third ${n}`) });
    await events.emit('test.happened', { n: 7 });
    expect(ran).toEqual(['first 7', 'third 7']);
    expect(log.lines).toEqual([
      expect.objectContaining({
        level: 'error',
        object: expect.objectContaining({ reaction: 'breaks-when-test-happened' }),
      }),
    ]);
  });

  it('tells a broadcast once in the sending process at once, and once in every other process', async () => {
    const sender = (await hubOn()).channel('test.told', told);
    const other = (await hubOn()).channel('test.told', told);
    const here: string[] = [];
    const there: string[] = [];
    sender.receive(({ id }) => here.push(id));
    other.receive(({ id }) => there.push(id));
    await sender.send({ id: 'a' });
    expect(here).toEqual(['a']);
    await expect.poll(() => there).toEqual(['a']);
    // The sender's own NOTIFY came back to it as well, and was not told twice.
    await other.send({ id: 'b' });
    await expect.poll(() => here).toEqual(['a', 'b']);
    expect(there).toEqual(['a', 'b']);
  });

  it('believes no payload its schema refuses, and no message that is not an event', async () => {
    const log = recordingLog();
    const heard: unknown[] = [];
    (await hubOn(log)).channel('test.told', told).receive((payload) => heard.push(payload));
    await database.notify(EVENTS_CHANNEL, JSON.stringify({ e: 'test.told', o: 'elsewhere', p: { id: 42 } }));
    await database.notify(EVENTS_CHANNEL, 'not json');
    await database.notify(EVENTS_CHANNEL, JSON.stringify({ e: 'test.told', o: 'elsewhere', p: { id: 'ok' } }));
    await expect.poll(() => heard).toEqual([{ id: 'ok' }]);
    expect(log.lines.map((line) => line.message)).toEqual([
      'an event with an invalid payload was ignored',
      'an event that is not JSON was ignored',
    ]);
  });

  it('opens a channel with one schema only, and refuses a payload NOTIFY cannot carry', async () => {
    const events = await hubOn();
    const channel = events.channel('test.told', told);
    const heard: string[] = [];
    events.channel('test.told', told).receive(({ id }) => heard.push(id));
    expect(() => events.channel('test.told', z.object({ id: z.string() }))).toThrow(/another schema/);
    await channel.send({ id: 'both hear it' });
    expect(heard).toEqual(['both hear it']);
    await expect(channel.send({ id: 'x'.repeat(8_000) })).rejects.toThrow(/too large/);
  });
});
