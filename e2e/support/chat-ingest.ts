import { createHmac } from 'node:crypto';
import { type IngestMessage, WORKFLOW_SIGNATURE_HEADER } from '@athena/contract';
import { expect } from 'vitest';

/** What a channel does: one batch, signed like a workflow webhook (docs/chat-ingest.md); it must be taken. */
export async function pushSigned(url: string, secret: string, messages: IngestMessage[]): Promise<unknown> {
  const body = JSON.stringify({ messages });
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [WORKFLOW_SIGNATURE_HEADER]: `t=${t},v1=${v1}` },
    body,
  });
  expect(res.status).toBe(200);
  return res.json();
}

/** The channel the specs' messages come through. */
export const CHANNEL = { id: 'kf-1', name: '官方客服' };

type Who = Pick<IngestMessage, 'msg_id' | 'conversation' | 'customer' | 'sender_name'>;

/** One message of a batch as a channel sends it, sent `ago` ms before now: a customer's text unless `fields` say otherwise. */
export const ingestMessage = (ago: number, fields: Who & Partial<IngestMessage>): IngestMessage => ({
  channel: CHANNEL,
  send_type: 'user',
  kind: 11041,
  content: '',
  payload: {},
  sent_at: Date.now() - ago,
  recalled: false,
  ...fields,
});
