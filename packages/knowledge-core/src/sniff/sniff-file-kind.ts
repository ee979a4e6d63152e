import { decodeText } from '../text/decode-text.ts';
import type { FileKind } from '../types.ts';
import { looksLikeDelimited } from './looks-like-delimited.ts';
import { looksLikeText } from './looks-like-text.ts';
import { isZip, zipEntryNames } from './zip-entry-names.ts';

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-

// Leading whitespace is tolerated (some generators emit it); anything else before the header is
// not, so a text file that merely mentions "%PDF-" stays text.
function startsWithPdfHeader(bytes: Uint8Array): boolean {
  let offset = 0;
  while (offset < bytes.length && offset < 16 && [0x09, 0x0a, 0x0d, 0x20].includes(bytes[offset])) offset++;
  return PDF_MAGIC.every((byte, index) => bytes[offset + index] === byte);
}

function officeKind(bytes: Uint8Array): FileKind | null {
  const names = new Set(zipEntryNames(bytes));
  if (names.has('word/document.xml')) return 'docx';
  if (names.has('xl/workbook.xml')) return 'xlsx';
  return null;
}

const NUL_PROBE_BYTES = 8192;

// Binaries nearly always have a NUL early on; rejecting them here skips decoding megabytes of them.
// UTF-16 text is full of NULs, but is only accepted with its BOM.
function hasNulWithoutUtf16Bom(bytes: Uint8Array): boolean {
  const utf16Bom = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  return !utf16Bom && bytes.subarray(0, NUL_PROBE_BYTES).includes(0);
}

/**
 * Decide the kind from the content. The name only chooses between txt and csv, because a text
 * file's bytes cannot say whether the user meant it as a table. An empty file is 'txt' so that
 * parsing reports FILE_EMPTY rather than an unsupported format.
 */
export function sniffFileKind(bytes: Uint8Array, fileName: string): FileKind | null {
  if (startsWithPdfHeader(bytes)) return 'pdf';
  if (isZip(bytes)) return officeKind(bytes);
  if (hasNulWithoutUtf16Bom(bytes)) return null;
  const { text } = decodeText(bytes);
  if (!looksLikeText(text)) return null;
  if (/\.(csv|tsv)$/i.test(fileName.trim()) && looksLikeDelimited(text)) return 'csv';
  return 'txt';
}
