import { createHmac, timingSafeEqual } from 'node:crypto';

const HOUR_MS = 3_600_000;

/**
 * Signed, expiring query strings for URLs an <img> or <video> loads: they cannot send the session
 * token, and a token must never sit in a URL that can leak (a shared screenshot, a proxy log). A
 * URL is good for one to two hours and stays the same within an hour, so the browser's cache
 * works. `purpose` keeps the signatures of one kind of URL useless for another.
 */
export function createUrlSigner(masterKey: Buffer, purpose: string, now: () => Date) {
  const key = createHmac('sha256', masterKey).update(purpose).digest();
  const signatureOf = (subject: string, expires: number) =>
    createHmac('sha256', key).update(`${subject}:${expires}`).digest('hex');

  return {
    /** `exp=…&sig=…` for the subject (the id the URL's path names), and the seconds it is good for. */
    sign(subject: string) {
      const expires = Math.ceil((now().getTime() + HOUR_MS) / HOUR_MS) * (HOUR_MS / 1000);
      const seconds = expires - Math.floor(now().getTime() / 1000);
      return { query: `exp=${expires}&sig=${signatureOf(subject, expires)}`, seconds };
    },
    /** Seconds the URL stays good, or null when it is forged, altered or expired. */
    check(subject: string, exp: string, sig: string): number | null {
      if (!/^\d{1,12}$/.test(exp) || !/^[0-9a-f]{64}$/.test(sig)) return null;
      const expected = Buffer.from(signatureOf(subject, Number(exp)), 'hex');
      if (!timingSafeEqual(expected, Buffer.from(sig, 'hex'))) return null;
      const left = Number(exp) - Math.floor(now().getTime() / 1000);
      return left > 0 ? left : null;
    },
  };
}
