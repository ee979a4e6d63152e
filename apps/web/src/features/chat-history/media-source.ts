import type { ChatHistoryMessage } from '@athena/contract';
import { safeUrl } from './media-size.ts';

export type MediaSource =
  | { kind: 'ready'; url: string }
  /** A channel's media still being copied to our storage. */
  | { kind: 'pending' }
  | { kind: 'failed'; error: string | null }
  | { kind: 'missing' };

/** Our own copy is served by this server: a path here, or a full http(s) address. */
const servable = (url: string | null) => (url && /^\/(?!\/)/.test(url) ? url : safeUrl(url ?? undefined));

/**
 * Where a message's picture, video, voice or file is: our stored copy of a channel's media (WeCom
 * media is copied, as its own links expire), or, for a message without channel media (the ingest
 * API), the sender's own address in the payload.
 */
export function mediaOf(
  message: Pick<ChatHistoryMessage, 'media_state' | 'media_url' | 'media_error' | 'payload'>,
): MediaSource {
  switch (message.media_state) {
    case 'pending':
      return { kind: 'pending' };
    case 'failed':
      return { kind: 'failed', error: message.media_error };
    case 'stored': {
      const url = servable(message.media_url);
      return url ? { kind: 'ready', url } : { kind: 'missing' };
    }
    default: {
      const url = safeUrl(message.payload.url);
      return url ? { kind: 'ready', url } : { kind: 'missing' };
    }
  }
}
