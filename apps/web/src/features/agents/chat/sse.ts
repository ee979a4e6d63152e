/** One server-sent event: its name (`message` when the stream gave none) and its data lines joined. */
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
