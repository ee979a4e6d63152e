import { signWebhook } from '../platform/http/webhook-signature.ts';
import type { TestApp } from './test-app.ts';

/**
 * Sends a chat-history ingest batch (`raw`, the exact JSON bytes) to a scene's ingest endpoint,
 * signed with its secret and the current time as a channel would (docs/chat-ingest.md).
 */
export function sendIngest(t: TestApp, endpoint: { url: string; secret: string }, raw: string) {
  const at = Math.floor(Date.now() / 1000);
  return t.app.inject({
    method: 'POST',
    url: new URL(endpoint.url).pathname,
    headers: {
      'content-type': 'application/json',
      'x-athena-signature': `t=${at},v1=${signWebhook(endpoint.secret, at, raw)}`,
    },
    payload: raw,
  });
}
