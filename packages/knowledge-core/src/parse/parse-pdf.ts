import { extractText, getDocumentProxy } from 'unpdf';
import { type Block, KnowledgeFileError, type ParsedDocument } from '../types.ts';
import { replaceCjkRadicals } from './cjk-radicals.ts';
import { textToBlocks } from './text-blocks.ts';

type PdfProxy = Awaited<ReturnType<typeof getDocumentProxy>>;

function describe(error: unknown): string {
  if (error instanceof Error) {
    // pdfjs names its failures (PasswordException for encrypted files, InvalidPDFException, …).
    return error.name === 'PasswordException' ? 'The PDF is encrypted.' : `The PDF cannot be read: ${error.message}`;
  }
  return 'The PDF cannot be read.';
}

async function openPdf(bytes: Uint8Array): Promise<PdfProxy> {
  try {
    // pdfjs may transfer (detach) the buffer it is given, so it gets a copy, never the caller's bytes.
    return await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  } catch (error) {
    throw new KnowledgeFileError('UNSUPPORTED_FILE_FORMAT', describe(error));
  }
}

export async function parsePdf(bytes: Uint8Array): Promise<ParsedDocument> {
  const pdf = await openPdf(bytes);
  try {
    const { totalPages, text } = await extractText(pdf, { mergePages: false });
    const blocks: Block[] = [];
    text.forEach((pageText, index) => {
      if (index > 0) blocks.push({ type: 'page_break', page: index + 1 });
      blocks.push(...textToBlocks(replaceCjkRadicals(pageText), 'reflow'));
    });
    return { kind: 'pdf', blocks, table: null, pages: totalPages, encoding: null };
  } catch (error) {
    throw new KnowledgeFileError('UNSUPPORTED_FILE_FORMAT', describe(error));
  } finally {
    await pdf.destroy();
  }
}
