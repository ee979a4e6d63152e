/**
 * What the knowledge files' worker thread does (knowledge-files.worker.ts runs it; file-readers.ts
 * asks for it). Everything that reads a file's content is here, so none of it runs on the server's
 * own thread: the kind by content, parsing, and cutting into segments. What goes back is small
 * (a kind, a header and a hash, or segments in batches), so receiving it never holds the server up
 * either.
 */
import { createHash } from 'node:crypto';
import {
  type Chunk,
  type ChunkingOptions,
  chunkDocument,
  createChunker,
  type FileKind,
  hasReadableText,
  KnowledgeFileError,
  noReadableText,
  parseDocument,
  sniffFileKind,
  type TableModeOptions,
} from '@athena/knowledge-core';
import { pdfPages } from '@athena/knowledge-core/pdf';
import type { FileTask } from '../../platform/file-workers/serve-file-tasks.ts';

interface Cutting {
  bytes: Uint8Array;
  kind: FileKind;
  chunking: ChunkingOptions;
  tableMode: TableModeOptions;
}

export type FileTaskRequest =
  | { type: 'inspect'; bytes: Uint8Array; fileName: string }
  | ({ type: 'chunks' } & Cutting)
  | ({ type: 'preview'; limit: number } & Cutting);

/**
 * An upload's verdict: its kind, for a table its header (the columns Q&A mode picks from), and its
 * SHA-256 in hex (hashing 20 MB holds a thread for ~40 ms, so not the server's).
 */
export interface Inspection {
  kind: FileKind;
  columns: string[] | null;
  sha256: string;
}

/** Segments in order, with how much of the file is read by then (0–1; 1 once it is all read). */
export interface ChunkRun {
  chunks: Chunk[];
  read: number;
}

export interface PreviewResult {
  total: number;
  chunks: Chunk[];
  columns: string[] | null;
}

/** Segments per message: a message is cloned on the server's thread, so none may be large. */
const CHUNKS_PER_MESSAGE = 500;

/**
 * The kind by content, then a read: a PDF only up to its first page with text (a 1 000-page one
 * in 0.1 s, not 2; later pages are read at indexing), other kinds whole, which finds a table's
 * header too.
 */
async function inspect(bytes: Uint8Array, fileName: string, task: FileTask): Promise<Inspection> {
  const kind = sniffFileKind(bytes, fileName);
  if (!kind)
    throw new KnowledgeFileError('UNSUPPORTED_FILE_FORMAT', 'The content is not a PDF, text, DOCX or XLSX file.');
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (kind !== 'pdf') return { kind, columns: (await parseDocument(bytes, kind)).table?.columns ?? null, sha256 };
  for await (const page of pdfPages(bytes)) {
    if (hasReadableText(page.blocks)) return { kind, columns: null, sha256 };
    if (task.stopped) break;
  }
  throw noReadableText();
}

/**
 * A PDF page by page as pdfjs extracts it, so the server writes early segments while later pages
 * are still being read; other kinds parsed whole, then sent in batches.
 */
async function chunks({ bytes, kind, chunking, tableMode }: Cutting, task: FileTask) {
  if (kind === 'pdf') {
    const chunker = createChunker(chunking);
    for await (const page of pdfPages(bytes)) {
      if (task.stopped) return;
      task.emit({ chunks: chunker.add(page.blocks), read: page.page / page.pages } satisfies ChunkRun);
    }
    task.emit({ chunks: chunker.finish(), read: 1 } satisfies ChunkRun);
    return;
  }
  const all = chunkDocument(await parseDocument(bytes, kind), chunking, tableMode);
  for (let start = 0; start < all.length || start === 0; start += CHUNKS_PER_MESSAGE) {
    const end = Math.min(all.length, start + CHUNKS_PER_MESSAGE);
    task.emit({ chunks: all.slice(start, end), read: end === all.length ? 1 : end / all.length } satisfies ChunkRun);
    if (task.stopped) return;
  }
}

async function preview(request: Cutting & { limit: number }): Promise<PreviewResult> {
  const doc = await parseDocument(request.bytes, request.kind);
  const all = chunkDocument(doc, request.chunking, request.tableMode);
  return { total: all.length, chunks: all.slice(0, request.limit), columns: doc.table?.columns ?? null };
}

export function runFileTask(request: FileTaskRequest, task: FileTask): Promise<unknown> {
  switch (request.type) {
    case 'inspect':
      return inspect(request.bytes, request.fileName, task);
    case 'chunks':
      return chunks(request, task);
    case 'preview':
      return preview(request);
  }
}

/** The engine's refusals reach the server with their catalogue code. */
export const fileRefusalOf = (error: unknown) =>
  error instanceof KnowledgeFileError ? { code: error.code, detail: error.detail } : null;
