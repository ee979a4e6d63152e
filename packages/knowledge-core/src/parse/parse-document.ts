import { type Block, type FileKind, KnowledgeFileError, type ParsedDocument } from '../types.ts';
import type { ZipLimits } from './bounded-zip.ts';
import { parseCsv } from './parse-csv.ts';
import { parseDocx } from './parse-docx.ts';
import { parsePdf } from './parse-pdf.ts';
import { parseTxt } from './parse-txt.ts';
import { parseXlsx } from './parse-xlsx.ts';

type Parser = (bytes: Uint8Array, limits?: ZipLimits) => ParsedDocument | Promise<ParsedDocument>;

function parserFor(kind: FileKind): Parser {
  switch (kind) {
    case 'pdf':
      return parsePdf;
    case 'docx':
      return parseDocx;
    case 'xlsx':
      return parseXlsx;
    case 'csv':
      return parseCsv;
    case 'txt':
      return parseTxt;
  }
}

export function hasReadableText(blocks: Block[]): boolean {
  return blocks.some((block) => block.type !== 'page_break' && block.text.trim() !== '');
}

/** The refusal of a file without text (a scanned PDF, a sheet without cells, blank pages). */
export const noReadableText = () => new KnowledgeFileError('FILE_EMPTY', 'The file contains no readable text.');

/**
 * Parse bytes already sniffed as `kind`. Throws KnowledgeFileError: UNSUPPORTED_FILE_FORMAT when
 * the bytes are corrupt, encrypted or not that kind, or an Office part declares a DTD; FILE_EMPTY
 * when nothing readable is left (an empty file, a scanned PDF without a text layer, a sheet
 * without cells); FILE_TOO_COMPLEX for a file past the limits. DOCX and XLSX are unzipped within
 * `options.zip` (ZIP_LIMITS by default), a PDF's Flate streams inflated within PDF_STREAM_LIMITS
 * first.
 * Run it in a worker thread with a heap and a time limit: what a file costs to parse is the file's
 * choice.
 */
export async function parseDocument(
  bytes: Uint8Array,
  kind: FileKind,
  options: { zip?: ZipLimits } = {},
): Promise<ParsedDocument> {
  if (bytes.length === 0) throw new KnowledgeFileError('FILE_EMPTY', 'The file is empty.');
  const doc = await parserFor(kind)(bytes, options.zip);
  if (!hasReadableText(doc.blocks)) throw noReadableText();
  return doc;
}
