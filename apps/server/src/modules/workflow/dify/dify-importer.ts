import { type ErrorKey, isErrorKey, type WorkflowFile } from '@athena/contract';
import { createFileWorkerPool, FileRefusal, FileWorkerLimit } from '../../../platform/file-workers/file-worker-pool.ts';
import { AppError } from '../../../platform/http/app-error.ts';
import type { DifyConvertContext, ImportNote } from './convert.ts';
import type { DifyTaskRequest } from './dify-task.ts';
import { DIFY_FILE_MAX_BYTES } from './dsl-sniff.ts';

/**
 * Where the thread's code is: beside the bundled server (dist/, see scripts/build-server.mjs), or
 * as TypeScript beside this file when the server runs from source (tests, benchmarks, tsx).
 */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(FROM_SOURCE ? './dify-files.worker.ts' : './dify-files.worker.mjs', import.meta.url);

export interface DifyImporterLimits {
  /** Threads at once; further files wait. */
  workers: number;
  /** Each thread's heap in MB. */
  heapMb: number;
  /** How long one file may take. */
  timeoutMs: number;
}

export const DIFY_IMPORTER_DEFAULTS: DifyImporterLimits = { workers: 1, heapMb: 256, timeoutMs: 20_000 };

export type DifyImporter = ReturnType<typeof createDifyImporter>;

/** A thread's verdict as the catalogue error the caller throws. */
function asAppError(error: unknown): unknown {
  if (error instanceof FileRefusal) {
    let params: Record<string, string | number> = {};
    try {
      params = JSON.parse(error.detail);
    } catch {
      params = { detail: error.detail };
    }
    const key: ErrorKey = isErrorKey(error.code) ? error.code : 'WORKFLOW_IMPORT_INVALID';
    return new AppError(key, params);
  }
  if (error instanceof FileWorkerLimit)
    return new AppError('WORKFLOW_IMPORT_INVALID', {
      detail: error.limit === 'memory' ? 'the file needs too much memory to read.' : 'the file takes too long to read.',
    });
  return error;
}

/**
 * Converts Dify DSL files to our workflow files in worker threads (docs/workflow-import.md).
 * `convert` throws AppError for a file that cannot be imported; a file past the size cap is
 * refused before it reaches a thread.
 */
export function createDifyImporter(limits: DifyImporterLimits = DIFY_IMPORTER_DEFAULTS) {
  const pool = createFileWorkerPool({
    entry: WORKER_URL,
    maxWorkers: limits.workers,
    heapMb: limits.heapMb,
    timeoutMs: limits.timeoutMs,
  });
  return {
    async convert(
      content: string,
      context: DifyConvertContext,
      signal?: AbortSignal,
    ): Promise<{ file: WorkflowFile; notes: ImportNote[] }> {
      if (content.length > DIFY_FILE_MAX_BYTES || Buffer.byteLength(content) > DIFY_FILE_MAX_BYTES)
        throw new AppError('WORKFLOW_TOO_LARGE');
      try {
        return await pool.run({ content, context } satisfies DifyTaskRequest, { signal });
      } catch (error) {
        throw asAppError(error);
      }
    },

    /** Threads alive now (tests). */
    get threads() {
      return pool.size;
    },

    close: () => pool.close(),
  };
}
