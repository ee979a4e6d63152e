import { billingLiveStream, type StreamEvent } from '@athena/contract';
import { followLive, liveFollowDelay, type OpenLive } from './live-follow.ts';
import { stream } from './stream-client.ts';

export type BillingLiveEvent = StreamEvent<typeof billingLiveStream>;

/**
 * `idle`: nobody follows (signed out, no space); `connecting`: the first connection is on its way;
 * `open`: events arrive as they happen; `down`: dropped or refused, waiting to try again.
 */
export type BillingLiveState = 'idle' | 'connecting' | 'open' | 'down';

/** Waits between reconnections: 1 s, 2 s, 4 s … up to a minute, so a server in trouble is not hammered. */
export const billingRetryDelay = liveFollowDelay;

type Open = OpenLive<BillingLiveEvent>;

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

const openBillingStream: Open = (signal, { onEvent, onOpen }) =>
  stream(billingLiveStream, {}, { signal, onEvent, onOpen });

/**
 * Follows the team's billing news for as long as `signal` lets it (live-follow.ts: `bye` reopens
 * at once, drops are retried with growing waits). The stream only speeds things up (every figure
 * can be read again), so failures are never shown: readers that must not miss a change poll
 * while the state is not `open`, and `onResync` tells them to read again after a gap. A business
 * refusal (no space, signed out) stops it.
 */
export async function followBillingLive(options: FollowBillingOptions): Promise<'aborted' | 'refused'> {
  const { signal, onEvent, onState, onResync, sleep, delay, now } = options;
  let openedBefore = false;
  onState('connecting');
  const outcome = await followLive({
    signal,
    open: options.open ?? openBillingStream,
    onEvent,
    onOpen: () => {
      onState('open');
      if (openedBefore) onResync();
      openedBefore = true;
    },
    // Only a drop: after `bye` the state stays `open`, so pollers keep quiet.
    onDropped: () => onState('down'),
    sleep,
    delay,
    now,
  });
  if (outcome === 'refused') onState('down');
  return outcome;
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
