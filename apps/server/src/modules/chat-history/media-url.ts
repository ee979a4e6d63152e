import { createHmac, timingSafeEqual } from 'node:crypto';

export const CHAT_MEDIA_PATH = '/api/athena/v1/chat/media/';
const HOUR_MS = 3_600_000;

/**
 * Signed, expiring URLs for a message's media: an <img> or <video> cannot send the session token,
 * and a token must never sit in a URL that can leak (a shared screenshot, a proxy log). A URL is
 * good for one to two hours; it is the same within an hour, so the browser's cache works.
 */
export function createMediaUrls(masterKey: Buffer, now: () => Date) {
  const key = createHmac('sha256', masterKey).update('chat-media-url').digest();
  const signatureOf = (messageId: string, expires: number) =>
    createHmac('sha256', key).update(`${messageId}:${expires}`).digest('hex');

  return {
    urlOf(messageId: string) {
      const expires = Math.ceil((now().getTime() + HOUR_MS) / HOUR_MS) * (HOUR_MS / 1000);
      return `${CHAT_MEDIA_PATH}${messageId}?exp=${expires}&sig=${signatureOf(messageId, expires)}`;
    },
    /** Seconds the URL stays good, or null when it is forged, altered or expired. */
    check(messageId: string, exp: string, sig: string): number | null {
      if (!/^\d{1,12}$/.test(exp) || !/^[0-9a-f]{64}$/.test(sig) || !/^\d{1,18}$/.test(messageId)) return null;
      const expected = Buffer.from(signatureOf(messageId, Number(exp)), 'hex');
      if (!timingSafeEqual(expected, Buffer.from(sig, 'hex'))) return null;
      const left = Number(exp) - Math.floor(now().getTime() / 1000);
      return left > 0 ? left : null;
    },
  };
}

export type MediaUrls = ReturnType<typeof createMediaUrls>;
