import type { StreamBody, StreamDescriptor, StreamEvent } from '@athena/contract';
import { ApiError, requestHeaders, settleResponse } from './api-client.ts';

/** One server-sent event as it came: its name (`message` when the stream gave none) and its data lines joined. */
export interface SseEvent {
  event: string;
  data: string;
}

/**
 * An incremental parser for `text/event-stream` (the WHATWG rules we need): lines end in \n, \r\n
 * or \r; `:` starts a comment (the server's `: ping`); `data:` lines of one event join with \n; a
 * blank line dispatches. Text may arrive split anywhere, even inside a line ending.
 */
export function createSseParser() {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let hasData = false;

  function line(text: string, out: SseEvent[]) {
    if (text === '') {
      if (hasData) out.push({ event: event || 'message', data: data.join('\n') });
      event = '';
      data = [];
      hasData = false;
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') {
      data.push(value);
      hasData = true;
    }
    // `id` and `retry` mean nothing for a POST stream; unknown fields are ignored by the standard.
  }

  return {
    /** Feeds decoded text; returns the events it completed. */
    push(text: string): SseEvent[] {
      buffer += text;
      const out: SseEvent[] = [];
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const ch = buffer[i];
        if (ch !== '\n' && ch !== '\r') continue;
        // A \r at the very end may be the first half of \r\n: wait for the next piece.
        if (ch === '\r' && i === buffer.length - 1) break;
        line(buffer.slice(start, i), out);
        if (ch === '\r' && buffer[i + 1] === '\n') i++;
        start = i + 1;
      }
      buffer = buffer.slice(start);
      return out;
    },
    /** The stream ended: an event without its closing blank line is incomplete and dropped. */
    end(): SseEvent[] {
      const out: SseEvent[] = [];
      if (buffer.endsWith('\r')) line(buffer.slice(0, -1), out);
      buffer = '';
      return out;
    },
  };
}

/**
 * Reads a byte stream as server-sent events, calling `onEvent` for each. Bytes are decoded as a
 * stream, so a character split across chunks survives. Resolves when the stream ends; rejects
 * (with an AbortError) when the reader is cancelled by the caller's signal.
 */
export async function readSseStream(stream: ReadableStream<Uint8Array>, onEvent: (event: SseEvent) => void) {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const parser = createSseParser();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const event of parser.push(decoder.decode(value, { stream: true }))) onEvent(event);
    }
    for (const event of parser.push(decoder.decode())) onEvent(event);
    for (const event of parser.end()) onEvent(event);
  } finally {
    reader.releaseLock();
  }
}

/**
 * A raw event checked against the descriptor: null for a name it does not list (a newer server)
 * and for data its schema refuses, which the reader could not use anyway.
 */
export function toStreamEvent<S extends StreamDescriptor>(stream: S, raw: SseEvent): StreamEvent<S> | null {
  if (!Object.hasOwn(stream.events, raw.event)) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw.data);
  } catch {
    return null;
  }
  const parsed = stream.events[raw.event].safeParse(value);
  return parsed.success ? ({ event: raw.event, data: parsed.data } as StreamEvent<S>) : null;
}

/** The pieces of the shared API client a stream needs: its headers and its envelope rules. */
export interface StreamClientDeps {
  fetch: typeof fetch;
  headers: (contentType: string) => Record<string, string>;
  settle: (response: { ok: boolean; status: number }, text: string) => unknown;
}

const browserDeps = (): StreamClientDeps => ({
  fetch: (...args) => globalThis.fetch(...args),
  headers: requestHeaders,
  settle: settleResponse,
});

const abortError = () => new DOMException('The stream was stopped.', 'AbortError');

export const isAbortError = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/**
 * POSTs to a stream route with the API client's headers. Resolves with the body once the server
 * starts the stream; until then the server answers with the usual JSON envelope, which goes
 * through the client's own rules (login expired, space gone, `msg`) and rejects with an ApiError.
 * No timeout: an answer may stream for long, and the caller's signal is how it stops.
 */
async function openStream(
  path: string,
  body: unknown,
  signal: AbortSignal,
  deps: StreamClientDeps,
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

export interface StreamOptions<S extends StreamDescriptor> {
  /** Stops the stream: the request is aborted, so the server sees the reader leave. */
  signal: AbortSignal;
  /** Each event the descriptor names, typed by it, as it arrives. */
  onEvent: (event: StreamEvent<S>) => void;
  /**
   * The server has started the stream (its headers came). Readers that fall back to polling
   * while a stream is down use it to know when they may stop.
   */
  onOpen?: () => void;
  deps?: StreamClientDeps;
}

/**
 * Reads one stream of the contract. Resolves with whether it closed properly (the descriptor's
 * `end` event came) — false means the connection dropped. Rejects with an ApiError for a JSON
 * answer instead of a stream, an AbortError when the signal stopped it first.
 */
export async function stream<S extends StreamDescriptor>(
  descriptor: S,
  body: StreamBody<S>,
  options: StreamOptions<S>,
): Promise<{ ended: boolean }> {
  const { signal, onEvent } = options;
  const bytes = await openStream(descriptor.path, body, signal, options.deps ?? browserDeps());
  options.onOpen?.();
  let ended = false;
  try {
    await readSseStream(bytes, (raw) => {
      const event = toStreamEvent(descriptor, raw);
      if (!event) return;
      if (event.event === descriptor.end) ended = true;
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
