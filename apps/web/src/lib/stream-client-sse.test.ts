import { describe, expect, it } from 'vitest';
import { createSseParser, readSseStream, type SseEvent } from './stream-client.ts';

/** What the server writes for one chat turn (apps/server/src/platform/http/sse.ts), with a heartbeat in it. */
const STREAM =
  'event: start\ndata: {"conversation_id":"c1","message_id":"m1"}\n\n' +
  ': ping\n\n' +
  'event: delta\ndata: {"text":"Echo:"}\n\n' +
  'event: delta\ndata: {"text":" 你好 🌏"}\n\n' +
  'event: usage\ndata: {"input_tokens":3,"output_tokens":2}\n\n' +
  'event: end\ndata: {"status":"complete"}\n\n';

const EXPECTED: SseEvent[] = [
  { event: 'start', data: '{"conversation_id":"c1","message_id":"m1"}' },
  { event: 'delta', data: '{"text":"Echo:"}' },
  { event: 'delta', data: '{"text":" 你好 🌏"}' },
  { event: 'usage', data: '{"input_tokens":3,"output_tokens":2}' },
  { event: 'end', data: '{"status":"complete"}' },
];

function parseInPieces(text: string, cuts: number[]): SseEvent[] {
  const parser = createSseParser();
  const out: SseEvent[] = [];
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    out.push(...parser.push(text.slice(from, cut)));
    from = cut;
  }
  out.push(...parser.end());
  return out;
}

/** A byte stream that hands out `bytes` in the given chunk sizes. */
function byteStream(bytes: Uint8Array, cuts: number[]): ReadableStream<Uint8Array> {
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    pieces.push(bytes.slice(from, cut));
    from = cut;
  }
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });
}

describe('createSseParser', () => {
  it('parses a whole stream and skips comment lines', () => {
    expect(parseInPieces(STREAM, [])).toEqual(EXPECTED);
  });

  it('gives the same events however the text is split (every single cut point)', () => {
    for (let cut = 0; cut <= STREAM.length; cut++) {
      expect(parseInPieces(STREAM, [cut])).toEqual(EXPECTED);
    }
  });

  it('gives the same events when fed one character at a time', () => {
    const cuts = Array.from({ length: STREAM.length }, (_, i) => i);
    expect(parseInPieces(STREAM, cuts)).toEqual(EXPECTED);
  });

  it('accepts \\r\\n and \\r line endings, also when \\r\\n is split between pieces', () => {
    const crlf = STREAM.replace(/\n/g, '\r\n');
    for (let cut = 0; cut <= crlf.length; cut++) expect(parseInPieces(crlf, [cut])).toEqual(EXPECTED);
    expect(parseInPieces(STREAM.replace(/\n/g, '\r'), [])).toEqual(EXPECTED);
  });

  it('joins multi-line data with \\n and keeps a value without the single leading space', () => {
    const text = 'event: delta\ndata: first\ndata:second\ndata:  third\ndata\n\n';
    expect(parseInPieces(text, [])).toEqual([{ event: 'delta', data: 'first\nsecond\n third\n' }]);
  });

  it('names an event without an event field "message" and ignores blocks without data', () => {
    const text = ': only a comment\n\nevent: lonely\n\ndata: {"a":1}\nid: 7\nretry: 10\n\n';
    expect(parseInPieces(text, [])).toEqual([{ event: 'message', data: '{"a":1}' }]);
  });

  it('drops an event whose closing blank line never came', () => {
    expect(parseInPieces('event: delta\ndata: {"text":"half"}\n', [])).toEqual([]);
    expect(parseInPieces('event: end\ndata: {}\n\nevent: delta\ndata: x', [])).toEqual([{ event: 'end', data: '{}' }]);
  });
});

describe('readSseStream', () => {
  const bytes = new TextEncoder().encode(STREAM);

  it('decodes bytes split anywhere, even inside a multi-byte character', async () => {
    const emoji = new TextEncoder().encode(STREAM.slice(0, STREAM.indexOf('🌏'))).length;
    const cuts = [1, emoji + 1, emoji + 2, emoji + 3, bytes.length - 1];
    for (const cut of [...cuts, ...Array.from({ length: 60 }, (_, i) => i * 7)]) {
      const events: SseEvent[] = [];
      await readSseStream(
        byteStream(
          bytes,
          [cut].filter((c) => c < bytes.length),
        ),
        (event) => events.push(event),
      );
      expect(events).toEqual(EXPECTED);
    }
  });

  it('handles one byte per chunk', async () => {
    const events: SseEvent[] = [];
    await readSseStream(
      byteStream(
        bytes,
        Array.from({ length: bytes.length - 1 }, (_, i) => i + 1),
      ),
      (event) => events.push(event),
    );
    expect(events).toEqual(EXPECTED);
  });
});
