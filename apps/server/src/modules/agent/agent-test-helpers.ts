import type { TestApp } from '../../testing/test-app.ts';

export interface SseEvent {
  event: string;
  data: unknown;
}

/** Parses a complete text/event-stream body into its events (comments are heartbeats). */
export function parseSse(body: string): SseEvent[] {
  return body
    .split('\n\n')
    .filter((block) => block.trim() && !block.startsWith(':'))
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? 'null';
      return { event, data: JSON.parse(data) as unknown };
    });
}

/** POSTs to a streaming route through the real app; returns the status, content type and events. */
export async function stream(t: TestApp, path: string, body: unknown, headers: Record<string, string>) {
  const res = await t.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  });
  const type = String(res.headers['content-type'] ?? '');
  return {
    status: res.statusCode,
    isStream: type.startsWith('text/event-stream'),
    events: type.startsWith('text/event-stream') ? parseSse(res.body) : [],
    json: type.startsWith('application/json') ? (res.json() as { code: number; msg: string }) : null,
  };
}

export const text = (events: SseEvent[]) =>
  events
    .filter((e) => e.event === 'delta')
    .map((e) => (e.data as { text: string }).text)
    .join('');
