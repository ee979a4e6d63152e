import { KnowledgeFileError } from '../types.ts';
import { storedZip, unzipBounded, ZIP_LIMITS, type ZipLimits } from './bounded-zip.ts';

const LT = 0x3c;
const BANG = 0x21;

type Encoding = { name: 'utf-8' | 'utf-16le' | 'utf-16be'; start: number };

/** How a part's text is encoded, from its byte-order mark or, without one, its first character. */
function encodingOf(part: Uint8Array): Encoding {
  if (part[0] === 0xef && part[1] === 0xbb && part[2] === 0xbf) return { name: 'utf-8', start: 3 };
  if (part[0] === 0xff && part[1] === 0xfe) return { name: 'utf-16le', start: 2 };
  if (part[0] === 0xfe && part[1] === 0xff) return { name: 'utf-16be', start: 2 };
  if (part.length > 1 && part[1] === 0) return { name: 'utf-16le', start: 0 };
  if (part.length > 1 && part[0] === 0) return { name: 'utf-16be', start: 0 };
  return { name: 'utf-8', start: 0 };
}

const isSpace = (unit: number) => unit === 0x20 || unit === 0x09 || unit === 0x0a || unit === 0x0d;

/**
 * Whether a part could be XML: after its byte-order mark and any white space, it starts with `<`.
 * Judged by content, not by name: the parsers find their main parts through the package's
 * relationships, which may name any entry (word/doc.bin as well as word/document.xml).
 */
function looksLikeXml(part: Uint8Array): boolean {
  const { name, start } = encodingOf(part);
  const width = name === 'utf-8' ? 1 : 2;
  for (let at = start; at + width <= part.length; at += width) {
    const unit =
      name === 'utf-8'
        ? part[at]
        : name === 'utf-16le'
          ? part[at] | (part[at + 1] << 8)
          : (part[at] << 8) | part[at + 1];
    if (!isSpace(unit)) return unit === LT;
  }
  return false;
}

function declares(bytes: Uint8Array, at: number, word: string): boolean {
  for (let index = 0; index < word.length; index++) {
    const byte = bytes[at + index];
    if (byte === undefined || (byte | 0x20) !== word.charCodeAt(index)) return false;
  }
  return true;
}

/**
 * Whether an XML part has a document type declaration or entity declarations. Office never writes
 * one (Word refuses such files), and it is what XXE (an entity naming /etc/passwd) and billion
 * laughs (entities nested ten deep) need. The parsers in use neither fetch nor nest entities, but
 * a file that tries is refused rather than trusted to them.
 */
function declaresDoctype(part: Uint8Array): boolean {
  const { name } = encodingOf(part);
  if (name !== 'utf-8') return /<!(doctype|entity)/i.test(new TextDecoder(name).decode(part));
  const buffer = Buffer.from(part.buffer, part.byteOffset, part.byteLength);
  for (let at = buffer.indexOf(LT); at >= 0; at = buffer.indexOf(LT, at + 1)) {
    if (buffer[at + 1] === BANG && (declares(part, at + 2, 'doctype') || declares(part, at + 2, 'entity'))) return true;
  }
  return false;
}

/**
 * A DOCX or XLSX made safe to hand to its parser: unzipped within `limits`, refused if any part
 * that could be XML declares a DTD, and zipped again without compression, so the parser's own unzip has nothing to
 * inflate and can only see entries checked here.
 */
export function openOfficeZip(bytes: Uint8Array, limits: ZipLimits = ZIP_LIMITS): Buffer {
  const entries = unzipBounded(bytes, limits);
  for (const entry of entries) {
    if (looksLikeXml(entry.data) && declaresDoctype(entry.data)) {
      throw new KnowledgeFileError('UNSUPPORTED_FILE_FORMAT', `“${entry.name}” declares a DTD or entities.`);
    }
  }
  return storedZip(entries);
}
