import { KnowledgeFileError } from '../types.ts';
import { storedZip, unzipBounded, ZIP_LIMITS, type ZipLimits } from './bounded-zip.ts';

// Parts the Office parsers read as XML. Other entries (images, embedded files, nested archives)
// are only copied: nothing opens them.
const XML_PART = /\.(xml|rels|vml)$/i;
const LT = 0x3c;
const BANG = 0x21;

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
export function declaresDoctype(part: Uint8Array): boolean {
  const utf16 = (part[0] === 0xff && part[1] === 0xfe) || (part[0] === 0xfe && part[1] === 0xff);
  if (utf16 || (part.length > 1 && part[1] === 0)) {
    const text = new TextDecoder(part[0] === 0xfe ? 'utf-16be' : 'utf-16le').decode(part);
    return /<!(doctype|entity)/i.test(text);
  }
  const buffer = Buffer.from(part.buffer, part.byteOffset, part.byteLength);
  for (let at = buffer.indexOf(LT); at >= 0; at = buffer.indexOf(LT, at + 1)) {
    if (buffer[at + 1] === BANG && (declares(part, at + 2, 'doctype') || declares(part, at + 2, 'entity'))) return true;
  }
  return false;
}

/**
 * A DOCX or XLSX made safe to hand to its parser: unzipped within `limits`, refused if an XML part
 * declares a DTD, and zipped again without compression, so the parser's own unzip has nothing to
 * inflate and can only see entries checked here.
 */
export function openOfficeZip(bytes: Uint8Array, limits: ZipLimits = ZIP_LIMITS): Buffer {
  const entries = unzipBounded(bytes, limits);
  for (const entry of entries) {
    if (XML_PART.test(entry.name) && declaresDoctype(entry.data)) {
      throw new KnowledgeFileError('UNSUPPORTED_FILE_FORMAT', `“${entry.name}” declares a DTD or entities.`);
    }
  }
  return storedZip(entries);
}
