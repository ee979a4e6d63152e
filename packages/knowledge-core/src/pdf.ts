/**
 * The PDF reader alone, for a worker thread: importing it loads pdfjs and nothing of the rest of
 * the engine (jieba, the Office parsers).
 */
export { type PdfPage, pdfPages } from './parse/parse-pdf.ts';
export { KnowledgeFileError } from './types.ts';
