import { constants, inflateSync } from 'node:zlib';
import { KnowledgeFileError } from '../types.ts';

/**
 * pdfjs inflates a stream as it reads it, in JavaScript, with no limit: a 553 KB PDF whose page
 * content inflated to hundreds of MB kept it busy for 101 s. So before pdfjs opens a file, its
 * Flate streams are inflated here (natively, output discarded), within limits checked while
 * inflating. This is a fast path for the common bombs, not a bound: it reads dictionaries with
 * patterns rather than parsing the file, skips streams marked as images (text extraction never
 * decodes them, and a real Flate image compresses far better than the ratio allowed), and leaves
 * streams under other filters (ASCII85 before Flate, LZW) and encrypted files to the reader
 * thread's heap and time limits, which are what holds for any file.
 */
export interface PdfStreamLimits {
  /** One stream, inflated: page contents, fonts and object streams stay far below it. */
  maxStreamBytes: number;
  /** Every stream together, inflated. */
  maxInflatedBytes: number;
  /** Inflated ÷ compressed, for a stream above STREAM_RATIO_GRACE_BYTES (page text compresses 3–10 times). */
  maxRatio: number;
}

const MB = 1024 * 1024;
export const PDF_STREAM_LIMITS: PdfStreamLimits = {
  maxStreamBytes: 64 * MB,
  maxInflatedBytes: 512 * MB,
  maxRatio: 200,
};
const STREAM_RATIO_GRACE_BYTES = MB;
/** How far before `stream` its dictionary is looked for. */
const DICTIONARY_WINDOW = 4096;

const latin1 = new TextDecoder('latin1');

interface StreamAt {
  dictionary: string;
  data: Uint8Array;
}

/**
 * Each `stream … endstream` with its dictionary (the text since the object's `obj`, at most 4 KB).
 * Every `stream` keyword is looked at, even within the span another stream's /Length claims: a
 * /Length reaching over the next object must not hide that object's stream.
 */
function* streamsOf(bytes: Uint8Array): Generator<StreamAt> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = buffer.indexOf('stream'); at >= 0; at = buffer.indexOf('stream', at + 6)) {
    // `endstream` contains `stream`; only the keyword after a dictionary starts data.
    if (at >= 3 && buffer.toString('latin1', at - 3, at) === 'end') continue;
    let start = at + 6;
    if (buffer[start] === 0x0d) start++;
    if (buffer[start] !== 0x0a) continue;
    start++;
    // Looked for within the window only: a file of many bare `stream` keywords must not make
    // each search run back to the start.
    const from = Math.max(0, at - DICTIONARY_WINDOW);
    const obj = buffer.subarray(from, at).lastIndexOf('obj');
    const dictionary = latin1.decode(bytes.subarray(obj >= 0 ? from + obj + 3 : from, at));
    if (!dictionary.includes('<<')) continue;
    const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dictionary);
    let end = length ? start + Number(length[1]) : -1;
    if (end < start || end > bytes.length) end = buffer.indexOf('endstream', start);
    if (end < 0) end = bytes.length;
    yield { dictionary, data: bytes.subarray(start, end) };
  }
}

const INDIRECT = /\d+\s+\d+\s+R/g;

/**
 * How many times the stream is Flate-encoded, when Flate is all it may be: 0 otherwise. A filter
 * given as a reference to another object (`/Filter 12 0 R`) counts as Flate: trying costs little,
 * and a stream that is not Flate fails to inflate at once.
 */
function flateLayers(dictionary: string): number {
  const filter = /\/Filter\s*(\[[^\]]*\]|\/\w+|\d+\s+\d+\s+R)/.exec(dictionary)?.[1];
  if (!filter) return 0;
  const names = filter.match(/\/\w+/g) ?? [];
  const references = filter.match(INDIRECT)?.length ?? 0;
  return names.every((name) => name === '/FlateDecode' || name === '/Fl') ? names.length + references : 0;
}

const tooComplex = (detail: string) => new KnowledgeFileError('FILE_TOO_COMPLEX', detail);

/** Throws FILE_TOO_COMPLEX when a Flate stream inflates past `limits`. */
export function checkPdfStreams(bytes: Uint8Array, limits: PdfStreamLimits = PDF_STREAM_LIMITS): void {
  let total = 0;
  for (const stream of streamsOf(bytes)) {
    if (/\/Subtype\s*\/Image/.test(stream.dictionary)) continue;
    let data: Uint8Array = stream.data;
    for (let layer = flateLayers(stream.dictionary); layer > 0; layer--) {
      const cap = Math.min(
        limits.maxStreamBytes,
        limits.maxInflatedBytes - total,
        Math.max(STREAM_RATIO_GRACE_BYTES, data.length * limits.maxRatio),
      );
      try {
        // A damaged stream inflates as far as it goes; pdfjs decides what to make of it.
        data = inflateSync(data, { maxOutputLength: Math.max(1, cap), finishFlush: constants.Z_SYNC_FLUSH });
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
          throw tooComplex('A stream of the PDF inflates far beyond its size: a decompression bomb.');
        }
        break;
      }
      total += data.length;
    }
  }
}
