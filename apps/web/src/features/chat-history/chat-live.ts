import { chatLiveStream, type StreamEvent } from '@athena/contract';
import { ApiError } from '../../lib/api-client.ts';
import { isAbortError, stream } from '../../lib/stream-client.ts';

type LiveEvent = StreamEvent<typeof chatLiveStream>;

/** Waits between reconnections: 1 s, 2 s, 4 s … up to a minute, so a server without the stream is not hammered. */
export const liveRetryDelay = (attempt: number) => Math.min(1000 * 2 ** Math.max(0, attempt - 1), 60_000);

/** A connection that stayed open this long was a working one: the next drop starts the waits afresh. */
const HEALTHY_MS = 60_000;
/** A connection that lasted this long had opened (its headers may come only with the first event). */
const OPEN_MS = 5_000;

export interface FollowLiveOptions {
  signal: AbortSignal;
  /** Conversations that changed; an empty list means "many, or unknown": refetch everything. */
  onChanged: (conversationIds: string[]) => void;
  open?: (signal: AbortSignal, onEvent: (event: LiveEvent) => void) => Promise<{ ended: boolean }>;
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

/**
 * Follows the scene's live changes for as long as the page is open; the server closes each stream
 * after a while (`bye`), and the next one opens at once. The stream is a convenience on
 * top of a list that is complete without it, so a failure is never shown: a dropped connection or
 * an answer without the stream (an older server: 404) is retried with growing waits, and what
 * changed while a working connection was down is fetched again (`onChanged([])`). Only a refusal
 * (a business code: no chat history in this scene, signed out) stops it.
 */
export async function followChatLive(options: FollowLiveOptions): Promise<'aborted' | 'refused'> {
  const { signal, onChanged } = options;
  const open =
    options.open ??
    ((s: AbortSignal, onEvent: (event: LiveEvent) => void) => stream(chatLiveStream, {}, { signal: s, onEvent }));
  const sleep = options.sleep ?? sleepFor;
  const delay = options.delay ?? liveRetryDelay;
  const now = options.now ?? Date.now;
  let attempt = 0;
  let wasOpen = false;
  for (;;) {
    if (signal.aborted) return 'aborted';
    // Changes made while a working connection was down were not heard: fetch everything again.
    if (wasOpen) onChanged([]);
    const started = now();
    let heard = false;
    let ended = false;
    try {
      ({ ended } = await open(signal, (event) => {
        heard = true;
        if (event.event === 'changed') onChanged(event.data.conversation_ids);
      }));
    } catch (error) {
      if (signal.aborted || isAbortError(error)) return 'aborted';
      if (error instanceof ApiError && error.kind === 'business') return 'refused';
    }
    if (signal.aborted) return 'aborted';
    // A refusal at once (no stream on this server) was never open, so nothing was missed.
    wasOpen = heard || now() - started >= OPEN_MS;
    // The server ends a stream after a while (`bye`): reconnect at once, it was no failure.
    if (ended) {
      attempt = 0;
      continue;
    }
    attempt = heard || now() - started >= HEALTHY_MS ? 1 : attempt + 1;
    await sleep(delay(attempt), signal);
  }
}
