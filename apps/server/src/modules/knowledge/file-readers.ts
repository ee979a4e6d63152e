import type { ChunkingOptions, FileKind, TableModeOptions } from '@athena/knowledge-core';
import { KnowledgeFileError } from '@athena/knowledge-core';
import { createFileWorkerPool, FileRefusal, FileWorkerLimit } from '../../platform/file-workers/file-worker-pool.ts';
import type { ChunkRun, FileTaskRequest, Inspection, PreviewResult } from './file-tasks.ts';

/**
 * Where the thread's code is: beside the bundled server (dist/, see scripts/build-server.mjs), or
 * as TypeScript beside this file when the server runs from source (tests, benchmarks, tsx).
 */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(
  FROM_SOURCE ? './knowledge-files.worker.ts' : './knowledge-files.worker.mjs',
  import.meta.url,
);

export interface FileReaderLimits {
  /** Threads at once (FILE_PARSE_WORKERS). */
  workers: number;
  /** Each thread's heap in MB (FILE_PARSE_HEAP_MB). */
  heapMb: number;
  /** How long one file may take (FILE_PARSE_TIMEOUT_MS). */
  timeoutMs: number;
}

/** A file a thread refused, or that broke its thread's limits, as the engine's refusal. */
function asFileError(error: unknown): unknown {
  if (error instanceof FileRefusal)
    return new KnowledgeFileError(error.code as KnowledgeFileError['code'], error.detail);
  if (error instanceof FileWorkerLimit) return new KnowledgeFileError('FILE_TOO_COMPLEX', error.message);
  return error;
}

/** A copy for the thread, moved rather than cloned: the caller keeps its bytes. */
function withCopy(bytes: Uint8Array) {
  const copy = new Uint8Array(bytes);
  return { copy, transfer: [copy.buffer] };
}

export type FileReaders = ReturnType<typeof createFileReaders>;

/**
 * Every read of a knowledge file's content (the upload check, the preview, the indexer) runs in
 * the knowledge files' worker threads (docs/knowledge.md, "Parsing hostile files"). All of them
 * throw KnowledgeFileError for a file that cannot be used, including one that needs more memory
 * or time than a thread may take.
 */
export function createFileReaders(limits: FileReaderLimits) {
  const pool = createFileWorkerPool({
    entry: WORKER_URL,
    maxWorkers: limits.workers,
    heapMb: limits.heapMb,
    timeoutMs: limits.timeoutMs,
  });

  async function run<Result>(request: (bytes: Uint8Array) => FileTaskRequest, bytes: Uint8Array): Promise<Result> {
    const { copy, transfer } = withCopy(bytes);
    try {
      return await pool.run<Result>(request(copy), { transfer });
    } catch (error) {
      throw asFileError(error);
    }
  }

  return {
    /** The upload check: the kind by content, and the file read far enough to know it is usable. */
    inspect: (bytes: Uint8Array, fileName: string) =>
      run<Inspection>((copy) => ({ type: 'inspect', bytes: copy, fileName }), bytes),

    /** The first `limit` segments the file would be cut into, their total and a table's header. */
    preview: (
      bytes: Uint8Array,
      kind: FileKind,
      cut: { chunking: ChunkingOptions; tableMode: TableModeOptions; limit: number },
    ) => run<PreviewResult>((copy) => ({ type: 'preview', bytes: copy, kind, ...cut }), bytes),

    /**
     * The file's segments in order, in runs as the thread sends them (a PDF page by page), each
     * with how much of the file is read by then. An abort stops the thread's reading.
     */
    async *chunks(
      bytes: Uint8Array,
      kind: FileKind,
      cut: { chunking: ChunkingOptions; tableMode: TableModeOptions },
      signal?: AbortSignal,
    ): AsyncGenerator<ChunkRun> {
      const { copy, transfer } = withCopy(bytes);
      try {
        for await (const runs of pool.stream<ChunkRun>(
          { type: 'chunks', bytes: copy, kind, ...cut },
          { signal, transfer },
        )) {
          yield { chunks: runs.flatMap((run) => run.chunks), read: runs[runs.length - 1].read };
        }
      } catch (error) {
        throw asFileError(error);
      }
    },

    /** Threads alive now (tests). */
    get threads() {
      return pool.size;
    },

    close: () => pool.close(),
  };
}
