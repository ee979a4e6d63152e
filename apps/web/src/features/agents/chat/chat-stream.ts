import type { Citation } from '@athena/contract';
import { ApiError, requestHeaders, settleResponse } from '../../../lib/api-client.ts';
import { toCitations } from './citations.ts';
import { readSseStream } from './sse.ts';

/** The pieces of the shared API client a stream needs: its headers and its envelope rules. */
export interface StreamDeps {
  fetch: typeof fetch;
  headers: (contentType: string) => Record<string, string>;
  settle: (response: { ok: boolean; status: number }, text: string) => unknown;
}

const browserDeps = (): StreamDeps => ({
  fetch: (...args) => globalThis.fetch(...args),
  headers: requestHeaders,
  settle: settleResponse,
});

export type ChatStreamEvent =
  | { type: 'start'; conversationId: string; messageId: string }
  /** The knowledge-base sources the answer may cite as [n]; arrives before the first delta. */
  | { type: 'citations'; items: Citation[] }
  | { type: 'delta'; text: string }
  | { type: 'usage'; inputTokens: number; outputTokens: number }
  | { type: 'error'; code: number; kind: string; message: string }
  | { type: 'end'; status: string };

const abortError = () => new DOMException('The chat was stopped.', 'AbortError');

export const isAbortError = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/**
 * POSTs a chat request with the API client's headers. Resolves with the event stream once the
 * server starts one; until then the server answers with the usual JSON envelope, which goes
 * through the client's own rules (login expired, space gone, `msg`) and rejects with an ApiError.
 * No timeout: an answer may stream for long, and the caller's signal is the Stop button.
 */
export async function openChatStream(
  path: string,
  body: unknown,
  signal: AbortSignal,
  deps: StreamDeps = browserDeps(),
): Promise<ReadableStream<Uint8Array>> {
  let response: Response;
  try {
    response = await deps.fetch(path, {
      method: 'POST',
      headers: { ...deps.headers('application/json'), accept: 'text/event-stream' },
      body: JSON.stringify(body),
      signal,
    });
  } catch {
    if (signal.aborted) throw abortError();
    throw new ApiError('', undefined, 'network');
  }
  const type = response.headers.get('content-type') ?? '';
  if (response.ok && response.body && type.includes('text/event-stream')) return response.body;
  let text: string;
  try {
    text = await response.text();
  } catch {
    if (signal.aborted) throw abortError();
    throw new ApiError('', undefined, 'network');
  }
  deps.settle(response, text);
  // A success envelope where a stream belonged: nothing to show, but not silently nothing.
  throw new ApiError('', undefined, 'http', false, response.status);
}

function parseData(data: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const str = (value: unknown) => (typeof value === 'string' ? value : '');
const num = (value: unknown) => (typeof value === 'number' ? value : 0);

/** Turns one raw server-sent event into a typed chat event; unknown or broken events give null. */
export function toChatEvent(event: string, data: string): ChatStreamEvent | null {
  const value = parseData(data);
  if (!value) return null;
  switch (event) {
    case 'start':
      return { type: 'start', conversationId: str(value.conversation_id), messageId: str(value.message_id) };
    case 'citations':
      return { type: 'citations', items: toCitations(value.items) };
    case 'delta':
      return { type: 'delta', text: str(value.text) };
    case 'usage':
      return { type: 'usage', inputTokens: num(value.input_tokens), outputTokens: num(value.output_tokens) };
    case 'error':
      return { type: 'error', code: num(value.code), kind: str(value.kind), message: str(value.msg) };
    case 'end':
      return { type: 'end', status: str(value.status) };
    default:
      return null;
  }
}

/**
 * Runs one chat turn: opens the stream and hands each event to `onEvent`. Resolves with whether
 * the server closed the turn properly (`end`) — false means the connection dropped mid-answer.
 * Rejects with an ApiError for a JSON answer, an AbortError when the signal stopped it.
 */
export async function streamChat(
  path: string,
  body: unknown,
  signal: AbortSignal,
  onEvent: (event: ChatStreamEvent) => void,
  deps?: StreamDeps,
): Promise<{ ended: boolean }> {
  const stream = await openChatStream(path, body, signal, deps);
  let ended = false;
  try {
    await readSseStream(stream, (raw) => {
      const event = toChatEvent(raw.event, raw.data);
      if (!event) return;
      if (event.type === 'end') ended = true;
      onEvent(event);
    });
  } catch (error) {
    if (signal.aborted) throw abortError();
    if (ended) return { ended };
    throw error;
  }
  if (signal.aborted && !ended) throw abortError();
  return { ended };
}
