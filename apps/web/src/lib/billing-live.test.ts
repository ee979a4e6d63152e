import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client.ts';
import { type BillingLiveState, createBillingLiveHub, followBillingLive } from './billing-live.ts';

type Options = Parameters<typeof followBillingLive>[0];

function harness(open: NonNullable<Options['open']>, controller = new AbortController()) {
  const states: BillingLiveState[] = [];
  const heard: string[] = [];
  const waits: number[] = [];
  let resyncs = 0;
  const run = followBillingLive({
    signal: controller.signal,
    onEvent: (event) => heard.push(event.event),
    onState: (state) => states.push(state),
    onResync: () => resyncs++,
    open,
    sleep: async (ms) => {
      waits.push(ms);
    },
    now: () => 0,
  });
  return { run, states, heard, waits, resyncs: () => resyncs, controller };
}

describe('following the billing stream', () => {
  it('passes events on, reconnects at once after bye and asks readers to catch up', async () => {
    const controller = new AbortController();
    let opened = 0;
    const h = harness(async (_signal, { onEvent, onOpen }) => {
      opened++;
      onOpen();
      if (opened === 1) onEvent({ event: 'balance', data: { balance: 1000 } });
      if (opened === 2) controller.abort();
      onEvent({ event: 'bye', data: {} });
      return { ended: true };
    }, controller);
    expect(await h.run).toBe('aborted');
    expect(h.heard).toEqual(['balance', 'bye', 'bye']);
    expect(h.waits).toEqual([]);
    // The second connection may have missed something between the two.
    expect(h.resyncs()).toBe(1);
    // Never `down` across a goodbye: pollers keep quiet.
    expect(h.states).not.toContain('down');
  });

  it('says it is down after a drop and waits longer after each failure', async () => {
    const controller = new AbortController();
    let opened = 0;
    const h = harness(async (_signal, { onOpen }) => {
      opened++;
      if (opened === 1) onOpen();
      if (opened <= 3) throw new ApiError('', undefined, 'network');
      onOpen();
      controller.abort();
      return { ended: false };
    }, controller);
    expect(await h.run).toBe('aborted');
    expect(h.waits).toEqual([1000, 2000, 4000]);
    expect(h.states).toEqual(['connecting', 'open', 'down', 'down', 'down', 'open']);
    expect(h.resyncs()).toBe(1);
  });

  it('stops on a business refusal', async () => {
    const h = harness(async () => {
      throw new ApiError('space gone', 16023, 'business');
    });
    expect(await h.run).toBe('refused');
    expect(h.states.at(-1)).toBe('down');
  });
});

describe('the billing hub', () => {
  it('tells listeners what it hears and when the state changes, once per change', () => {
    const hub = createBillingLiveHub();
    const heard: string[] = [];
    let changes = 0;
    const stop = hub.listen((message) => heard.push(message.event));
    const unwatch = hub.subscribeState(() => changes++);
    hub.publish({ event: 'order', data: { id: 'o1', status: 'paid' } });
    hub.setState('open');
    hub.setState('open');
    stop();
    unwatch();
    hub.publish({ event: 'resync' });
    hub.setState('down');
    expect(heard).toEqual(['order']);
    expect(changes).toBe(1);
    expect(hub.getState()).toBe('down');
  });
});
