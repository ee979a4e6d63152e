import { createHmac, timingSafeEqual } from 'node:crypto';

/** Why a signature is refused; 'stale' when its timestamp is too far from now. */
export type SignatureVerdict =
  | { ok: true; timestamp: number; digest: string }
  | { ok: false; reason: 'invalid' | 'stale' };

/** The hex HMAC-SHA256 a sender puts in `v1=`: over "<t>.<raw body>" with the signing secret. */
export const signWebhook = (secret: string, timestamp: number, body: Buffer | string) =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');

/**
 * Checks `X-Athena-Signature: t=<unix seconds>,v1=<hex>` (several `v1=` may be sent, as during a
 * secret rotation on the sender's side; one matching is enough). Compared in constant time.
 */
export function verifyWebhookSignature(
  header: string | undefined,
  secret: string,
  body: Buffer,
  nowMs: number,
  toleranceSeconds: number,
): SignatureVerdict {
  if (!header || header.length > 1024) return { ok: false, reason: 'invalid' };
  let timestamp: number | null = null;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const [name, value = ''] = part.trim().split('=', 2);
    if (name === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (name === 'v1' && /^[0-9a-f]{64}$/i.test(value)) candidates.push(value.toLowerCase());
  }
  if (timestamp === null || candidates.length === 0) return { ok: false, reason: 'invalid' };
  const expected = Buffer.from(signWebhook(secret, timestamp, body), 'hex');
  const digest = candidates.find((candidate) => timingSafeEqual(Buffer.from(candidate, 'hex'), expected));
  if (!digest) return { ok: false, reason: 'invalid' };
  // Checked after the signature: a stranger learns nothing about the clock from a forged request.
  if (Math.abs(nowMs / 1000 - timestamp) > toleranceSeconds) return { ok: false, reason: 'stale' };
  return { ok: true, timestamp, digest };
}
