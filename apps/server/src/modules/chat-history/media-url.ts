import { createUrlSigner } from '../../platform/signed-url.ts';

export const CHAT_MEDIA_PATH = '/api/athena/v1/chat/media/';

/** Signed, expiring URLs for a message's media (platform/signed-url.ts explains why). */
export function createMediaUrls(masterKey: Buffer, now: () => Date) {
  const signer = createUrlSigner(masterKey, 'chat-media-url', now);
  return {
    urlOf: (messageId: string) => `${CHAT_MEDIA_PATH}${messageId}?${signer.sign(messageId).query}`,
    /** Seconds the URL stays good, or null when it is forged, altered or expired. */
    check(messageId: string, exp: string, sig: string): number | null {
      return /^\d{1,18}$/.test(messageId) ? signer.check(messageId, exp, sig) : null;
    },
  };
}

export type MediaUrls = ReturnType<typeof createMediaUrls>;
