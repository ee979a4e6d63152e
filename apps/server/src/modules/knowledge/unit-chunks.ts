import type { ChunkingOptions, FileKind, TableModeOptions } from '@athena/knowledge-core';
import type { FileReaders } from './file-readers.ts';
import type { UnitRow } from './knowledge.repo.ts';

/**
 * A unit's segments in order, in runs, each with how much of the file is read by then (0–1). The
 * file is read and cut in the knowledge files' worker thread; a PDF arrives page by page, so its
 * first segments can be written while later pages are still being extracted.
 */
export function chunksOf(readers: FileReaders, unit: UnitRow, bytes: Uint8Array, signal: AbortSignal) {
  const tableMode = (unit.tableMode as TableModeOptions | null) ?? { mode: 'row' };
  return readers.chunks(
    bytes,
    unit.fileKind as FileKind,
    { chunking: unit.chunking as ChunkingOptions, tableMode },
    signal,
  );
}
