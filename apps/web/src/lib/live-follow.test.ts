import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client.ts';
import {
  type ClosedConnection,
  followLive,
  liveFollowDelay,
  type OpenLive,
  sleepUnlessAborted,
} from './live-follow.ts';

type Options = Parameters<typeof followLive<string>>[0];

/** Runs the follower with instant waits and a clock the connections move. */
function harness(open: OpenLive<string>, extra: Partial<Options> = {}, controller = new AbortController()) {
  const waits: number[] = [];
  const dropped: ClosedConnection[] = [];
  const reconnects: ClosedConnection[] = [];
  const run = followLive<string>({
    signal: controller.signal,
    open,
    onEvent: () => {},
    onDropped: (connection) => dropped.push(connection),
    onReconnect: (previous) => reconnects.push(previous),
    sleep: async (ms) => {
      waits.push(ms);
    },
    // A clock that stands still unless a test moves it: a connection lasts 0 ms however slowly the
    // machine runs (with the real clock, one took 1 ms on a loaded CI machine).
    now: () => 0,
    ...extra,
  });
  return { run, waits, dropped, reconnects };
}

describe('following a live stream', () => {
  it('waits 1 s, 2 s, 4 s … up to a minute between tries', () => {
    expect([0, 1, 2, 3, 4, 7, 8, 20].map(liveFollowDelay)).toEqual([
      1000, 1000, 2000, 4000, 8000, 60_000, 60_000, 60_000,
    ]);
  });

  it('starts the waits afresh after a connection that stayed open a minute, not after a short one', async () => {
    const controller = new AbortController();
    let clock = 0;
    let opened = 0;
    const h = harness(
      async (_signal, { onOpen }) => {
        opened++;
        if (opened === 6) controller.abort();
        // Tries 1 and 2 open but drop at once; try 3 fails; try 4 stays open a minute; try 5 fails.
        if (opened === 3 || opened === 5) throw new ApiError('', undefined, 'network');
        onOpen();
        if (opened === 4) clock += 60_000;
        return { ended: false };
      },
      { now: () => clock },
      controller,
    );
    expect(await h.run).toBe('aborted');
    expect(h.waits).toEqual([1000, 2000, 4000, 1000, 2000]);
    expect(h.dropped.map((c) => [c.opened, c.lasted])).toEqual([
      [true, 0],
      [true, 0],
      [false, 0],
      [true, 60_000],
      [false, 0],
    ]);
  });

  it('lets the caller decide what a working connection is', async () => {
    const controller = new AbortController();
    let opened = 0;
    const h = harness(
      async (_signal, { onEvent }) => {
        opened++;
        if (opened === 4) controller.abort();
        if (opened !== 2) onEvent('changed');
        return { ended: false };
      },
      { healthy: (connection) => connection.heard },
      controller,
    );
    await h.run;
    expect(h.waits).toEqual([1000, 2000, 1000]);
  });

  it('reconnects at once after the goodbye, without calling it a drop', async () => {
    const controller = new AbortController();
    const heard: string[] = [];
    let opened = 0;
    const h = harness(
      async (_signal, { onEvent, onOpen }) => {
        opened++;
        onOpen();
        if (opened === 3) controller.abort();
        onEvent('bye');
        return { ended: true };
      },
      { onEvent: (event) => heard.push(event) },
      controller,
    );
    expect(await h.run).toBe('aborted');
    expect(heard).toEqual(['bye', 'bye', 'bye']);
    expect(h.waits).toEqual([]);
    expect(h.dropped).toEqual([]);
    // Each new connection is told how the one before went; the first has nothing before it.
    expect(h.reconnects).toEqual([
      { opened: true, heard: true, ended: true, lasted: 0 },
      { opened: true, heard: true, ended: true, lasted: 0 },
    ]);
  });

  it('retries a failure that is not a refusal, and stops on a business refusal', async () => {
    let opened = 0;
    const h = harness(async () => {
      opened++;
      if (opened === 1) throw new ApiError('', undefined, 'http', false, 404);
      throw new ApiError('space gone', 16023, 'business');
    });
    expect(await h.run).toBe('refused');
    expect(h.waits).toEqual([1000]);
    // A refusal is no drop: nothing to wait for.
    expect(h.dropped).toHaveLength(1);
  });

  it('stops when the signal stops, even while a connection is failing', async () => {
    const controller = new AbortController();
    const h = harness(
      async () => {
        controller.abort();
        throw new ApiError('', undefined, 'network');
      },
      {},
      controller,
    );
    expect(await h.run).toBe('aborted');
    expect(h.waits).toEqual([]);
    expect(h.dropped).toEqual([]);
  });

  it('stops waiting as soon as the signal stops', async () => {
    const controller = new AbortController();
    const waited = sleepUnlessAborted(60_000, controller.signal);
    controller.abort();
    await expect(waited).resolves.toBeUndefined();
  });
});
