import { ApiError } from './api-client.ts';
import { isAbortError } from './stream-client.ts';

/** Waits between reconnections: 1 s, 2 s, 4 s … up to a minute, so a server in trouble is not hammered. */
export const liveFollowDelay = (attempt: number) => Math.min(1000 * 2 ** Math.max(0, attempt - 1), 60_000);

/** A connection that stayed open this long was a working one: the next drop starts the waits afresh. */
export const HEALTHY_MS = 60_000;

/** Waits `ms`, or less when the signal stops first (it never rejects: the caller checks the signal). */
export const sleepUnlessAborted = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** How one connection went, for the follower's rules about waiting and catching up. */
export interface ClosedConnection {
  /** The server started the stream (`onOpen` was called). */
  opened: boolean;
  /** At least one event came. */
  heard: boolean;
  /** The server said goodbye (`bye`): a routine end, not a failure. */
  ended: boolean;
  /** How long it lasted, in ms. */
  lasted: number;
}

/** Opens one connection; resolves when it closes (`ended` after the server's goodbye), rejects when it fails. */
export type OpenLive<E> = (
  signal: AbortSignal,
  handlers: { onEvent: (event: E) => void; onOpen: () => void },
) => Promise<{ ended: boolean }>;

export interface FollowLiveOptions<E> {
  signal: AbortSignal;
  open: OpenLive<E>;
  onEvent: (event: E) => void;
  /** The server started a stream. */
  onOpen?: () => void;
  /** A connection dropped without the server's goodbye: a wait comes next. */
  onDropped?: (connection: ClosedConnection) => void;
  /** A new connection is about to open; `previous` is how the last one went. */
  onReconnect?: (previous: ClosedConnection) => void;
  /** Whether a dropped connection was a working one, so the waits start afresh. */
  healthy?: (connection: ClosedConnection) => boolean;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  delay?: (attempt: number) => number;
  now?: () => number;
}

const openedLongEnough = (connection: ClosedConnection) => connection.opened && connection.lasted >= HEALTHY_MS;

/**
 * Keeps a live stream open for as long as `signal` lets it: the server ends each stream after a
 * while (`bye`) and the next one opens at once; a dropped or failed connection is retried with
 * growing waits (`delay`). Only a business refusal (signed out, no space, no such scene) stops it.
 * Live streams only speed things up, so no failure is shown: the hooks tell the caller when to
 * catch up by other means.
 */
export async function followLive<E>(options: FollowLiveOptions<E>): Promise<'aborted' | 'refused'> {
  const { signal, open, onEvent } = options;
  const healthy = options.healthy ?? openedLongEnough;
  const sleep = options.sleep ?? sleepUnlessAborted;
  const delay = options.delay ?? liveFollowDelay;
  const now = options.now ?? Date.now;
  let attempt = 0;
  let previous: ClosedConnection | undefined;
  for (;;) {
    if (signal.aborted) return 'aborted';
    if (previous) options.onReconnect?.(previous);
    const started = now();
    const connection: ClosedConnection = { opened: false, heard: false, ended: false, lasted: 0 };
    try {
      ({ ended: connection.ended } = await open(signal, {
        onEvent: (event) => {
          connection.heard = true;
          onEvent(event);
        },
        onOpen: () => {
          connection.opened = true;
          options.onOpen?.();
        },
      }));
    } catch (error) {
      if (signal.aborted || isAbortError(error)) return 'aborted';
      if (error instanceof ApiError && error.kind === 'business') return 'refused';
    }
    if (signal.aborted) return 'aborted';
    connection.lasted = now() - started;
    previous = connection;
    if (connection.ended) {
      attempt = 0;
      continue;
    }
    options.onDropped?.(connection);
    attempt = healthy(connection) ? 1 : attempt + 1;
    await sleep(delay(attempt), signal);
  }
}
