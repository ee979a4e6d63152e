import type { ErrorEnvelope, StreamBody, StreamDescriptor, StreamEvent } from '@athena/contract';
import type { TestApp } from '../../testing/test-app.ts';

/**
 * Parses a complete text/event-stream body into the descriptor's events (comments are
 * heartbeats). Every event must be one the descriptor names, with data its schema accepts.
 */
export function parseSse<S extends StreamDescriptor>(stream: S, body: string): StreamEvent<S>[] {
  return body
    .split('\n\n')
    .filter((block) => block.trim() && !block.startsWith(':'))
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
      const schema = stream.events[event];
      if (!schema) throw new Error(`${stream.path} sent an event the contract does not name: ${event}`);
      const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') as unknown;
      return { event, data: schema.parse(data) } as StreamEvent<S>;
    });
}

/** POSTs to a streaming route through the real app; returns the status, content type and events. */
export async function stream<S extends StreamDescriptor>(
  t: TestApp,
  route: S,
  body: StreamBody<S>,
  headers: Record<string, string>,
) {
  const res = await t.app.inject({
    method: 'POST',
    url: route.path,
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  });
  const type = String(res.headers['content-type'] ?? '');
  return {
    status: res.statusCode,
    isStream: type.startsWith('text/event-stream'),
    events: type.startsWith('text/event-stream') ? parseSse(route, res.body) : [],
    json: type.startsWith('application/json') ? (res.json() as ErrorEnvelope) : null,
  };
}

/** The answer a chat stream's `delta` events add up to. */
export const text = (events: { event: string; data: unknown }[]) =>
  events
    .filter((e): e is { event: 'delta'; data: { text: string } } => e.event === 'delta')
    .map((e) => e.data.text)
    .join('');

/** The data of the first event with that name, typed by the stream's contract. */
export function dataOf<S extends StreamDescriptor, K extends StreamEvent<S>['event']>(
  events: StreamEvent<S>[],
  name: K,
): Extract<StreamEvent<S>, { event: K }>['data'] | undefined {
  return events.find((e): e is Extract<StreamEvent<S>, { event: K }> => e.event === name)?.data;
}
