import { KnowledgeFileError, type ParsedDocument } from '../types.ts';
import type { ZipLimits } from './bounded-zip.ts';
import { htmlToBlocks } from './html-blocks.ts';
import { openOfficeZip } from './office-zip.ts';

export async function parseDocx(bytes: Uint8Array, limits?: ZipLimits): Promise<ParsedDocument> {
  // Checked and unpacked within limits first: mammoth's own unzip would inflate anything.
  const buffer = openOfficeZip(bytes, limits);
  // Loaded on first use: mammoth is ~16 MB of a server's memory that may never read a Word file.
  const { default: mammoth } = await import('mammoth');
  // Images carry no text we can index; dropping them keeps mammoth from base64-encoding every one.
  const dropImages = mammoth.images.imgElement(async () => ({ src: '' }));
  let html: string;
  try {
    ({ value: html } = await mammoth.convertToHtml(
      { buffer },
      { convertImage: dropImages, externalFileAccess: false },
    ));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new KnowledgeFileError('UNSUPPORTED_FILE_FORMAT', `The Word document cannot be read: ${reason}`);
  }
  return { kind: 'docx', blocks: htmlToBlocks(html), table: null, pages: null, encoding: null };
}
