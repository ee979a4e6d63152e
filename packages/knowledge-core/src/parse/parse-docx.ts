import mammoth from 'mammoth';
import { KnowledgeFileError, type ParsedDocument } from '../types.ts';
import { htmlToBlocks } from './html-blocks.ts';

// Images carry no text we can index; dropping them keeps mammoth from base64-encoding every one.
const dropImages = mammoth.images.imgElement(async () => ({ src: '' }));

export async function parseDocx(bytes: Uint8Array): Promise<ParsedDocument> {
  let html: string;
  try {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
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
