import { billingLiveStream, type StreamEvent } from '@athena/contract';
import { ApiError } from './api-client.ts';
import { isAbortError, stream } from './stream-client.ts';

export type BillingLiveEvent = StreamEvent<typeof billingLiveStream>;

/**
 * `idle`: nobody follows (signed out, no space); `connecting`: the first connection is on its way;
 * `open`: events arrive as they happen; `down`: dropped or refused, waiting to try again.
 */
export type BillingLiveState = 'idle' | 'connecting' | 'open' | 'down';

/** Waits between reconnections: 1 s, 2 s, 4 s … up to a minute, so a server in trouble is not hammered. */
export const billingRetryDelay = (attempt: number) => Math.min(1000 * 2 ** Math.max(0, attempt - 1), 60_000);

/** A connection that stayed open this long was a working one: the next drop starts the waits afresh. */
const HEALTHY_MS = 60_000;

type Open = (
  signal: AbortSignal,
  handlers: { onEvent: (event: BillingLiveEvent) => void; onOpen: () => void },
) => Promise<{ ended: boolean }>;

export interface FollowBillingOptions {
  signal: AbortSignal;
  onEvent: (event: BillingLiveEvent) => void;
  onState: (state: BillingLiveState) => void;
  /** A connection opened after an earlier one: whatever happened in between was not heard. */
  onResync: () => void;
  open?: Open;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  delay?: (attempt: number) => number;
  now?: () => number;
}

const sleepFor = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

const openBillingStream: Open = (signal, { onEvent, onOpen }) =>
  stream(billingLiveStream, {}, { signal, onEvent, onOpen });

/**
 * Follows the team's billing news for as long as `signal` lets it: the server ends each stream
 * after a while (`bye`) and the next one opens at once; a dropped connection is retried with
 * growing waits. The stream only speeds things up (every figure can be read again), so failures
 * are never shown: readers that must not miss a change poll while the state is not `open`, and
 * `onResync` tells them to read again after a gap. A business refusal (no space, signed out)
 * stops it.
 */
export async function followBillingLive(options: FollowBillingOptions): Promise<'aborted' | 'refused'> {
  const { signal, onEvent, onState, onResync } = options;
  const open = options.open ?? openBillingStream;
  const sleep = options.sleep ?? sleepFor;
  const delay = options.delay ?? billingRetryDelay;
  const now = options.now ?? Date.now;
  let attempt = 0;
  let openedBefore = false;
  onState('connecting');
  for (;;) {
    if (signal.aborted) return 'aborted';
    const started = now();
    let opened = false;
    let ended = false;
    try {
      ({ ended } = await open(signal, {
        onEvent,
        onOpen: () => {
          opened = true;
          onState('open');
          if (openedBefore) onResync();
          openedBefore = true;
        },
      }));
    } catch (error) {
      if (signal.aborted || isAbortError(error)) return 'aborted';
      if (error instanceof ApiError && error.kind === 'business') {
        onState('down');
        return 'refused';
      }
    }
    if (signal.aborted) return 'aborted';
    // `bye` is the server's routine goodbye, not a failure: straight back, still counted as open.
    if (ended) {
      attempt = 0;
      continue;
    }
    onState('down');
    attempt = opened && now() - started >= HEALTHY_MS ? 1 : attempt + 1;
    await sleep(delay(attempt), signal);
  }
}

type HubMessage = BillingLiveEvent | { event: 'resync' };

/**
 * One billing stream per tab, shared: the app-wide follower (shared/hooks/use-billing-live.ts)
 * publishes here what it hears and how its connection is, and any component listens.
 */
export function createBillingLiveHub() {
  const listeners = new Set<(message: HubMessage) => void>();
  const stateListeners = new Set<() => void>();
  let state: BillingLiveState = 'idle';
  return {
    publish(message: HubMessage) {
      for (const listener of listeners) listener(message);
    },
    listen(listener: (message: HubMessage) => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    setState(next: BillingLiveState) {
      if (next === state) return;
      state = next;
      for (const listener of stateListeners) listener();
    },
    getState: () => state,
    /** For useSyncExternalStore. */
    subscribeState(listener: () => void) {
      stateListeners.add(listener);
      return () => {
        stateListeners.delete(listener);
      };
    },
  };
}

export const billingLiveHub = createBillingLiveHub();
