import { chatLiveStream, type StreamEvent } from '@athena/contract';
import { followLive, HEALTHY_MS, liveFollowDelay } from '../../lib/live-follow.ts';
import { stream } from '../../lib/stream-client.ts';

type LiveEvent = StreamEvent<typeof chatLiveStream>;

/** Waits between reconnections: 1 s, 2 s, 4 s … up to a minute, so a server without the stream is not hammered. */
export const liveRetryDelay = liveFollowDelay;

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

const openChatStream = (signal: AbortSignal, onEvent: (event: LiveEvent) => void) =>
  stream(chatLiveStream, {}, { signal, onEvent });

/**
 * Follows the scene's live changes for as long as the page is open (live-follow.ts: the server
 * closes each stream after a while with `bye`, and the next one opens at once). The stream is a
 * convenience on top of a list that is complete without it, so a failure is never shown: a
 * dropped connection or an answer without the stream (an older server: 404) is retried with
 * growing waits, and what changed while a working connection was down is fetched again
 * (`onChanged([])`). Only a refusal (a business code: no chat history in this scene, signed out)
 * stops it.
 */
export function followChatLive(options: FollowLiveOptions): Promise<'aborted' | 'refused'> {
  const { signal, onChanged, sleep, delay, now } = options;
  const open = options.open ?? openChatStream;
  return followLive<LiveEvent>({
    signal,
    // The headers may come only with the first event, so `onOpen` says nothing here: events and time do.
    open: (s, { onEvent }) => open(s, onEvent),
    onEvent: (event) => {
      if (event.event === 'changed') onChanged(event.data.conversation_ids);
    },
    // Changes made while a working connection was down were not heard: fetch everything again.
    // A refusal at once (no stream on this server) was never open, so nothing was missed.
    onReconnect: (previous) => {
      if (previous.heard || previous.lasted >= OPEN_MS) onChanged([]);
    },
    healthy: (connection) => connection.heard || connection.lasted >= HEALTHY_MS,
    sleep,
    delay,
    now,
  });
}
