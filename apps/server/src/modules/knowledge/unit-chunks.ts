import {
  type Chunk,
  type ChunkingOptions,
  chunkDocument,
  createChunker,
  type FileKind,
  parseDocument,
  type TableModeOptions,
} from '@athena/knowledge-core';
import type { UnitRow } from './knowledge.repo.ts';
import { pdfPagesInThread } from './pdf-pages-thread.ts';

/**
 * A unit's segments in order, in runs, each with how much of the file is read by then (0–1). A PDF
 * is read in the reader thread and cut page by page, so its first segments can be written while
 * later pages are still being extracted; other files are parsed whole (they read in well under a
 * second).
 */
export async function* chunksOf(
  unit: UnitRow,
  bytes: Uint8Array,
  signal: AbortSignal,
): AsyncGenerator<{ chunks: Chunk[]; read: number }> {
  const chunking = unit.chunking as ChunkingOptions;
  if (unit.fileKind === 'pdf') {
    const chunker = createChunker(chunking);
    for await (const pages of pdfPagesInThread(bytes, signal)) {
      const last = pages[pages.length - 1];
      yield { chunks: pages.flatMap((page) => chunker.add(page.blocks)), read: last.page / last.pages };
    }
    yield { chunks: chunker.finish(), read: 1 };
    return;
  }
  const doc = await parseDocument(bytes, unit.fileKind as FileKind);
  const tableMode = (unit.tableMode as TableModeOptions | null) ?? { mode: 'row' };
  yield { chunks: chunkDocument(doc, chunking, tableMode), read: 1 };
}
