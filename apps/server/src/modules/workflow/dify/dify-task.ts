/**
 * What the Dify import's worker thread does (dify-files.worker.ts runs it; dify-importer.ts asks
 * for it): parse the YAML and convert it, so neither a hostile file nor a large graph holds up the
 * server's own thread. What goes back is the converted workflow file and the notes.
 */
import { AppError } from '../../../platform/http/app-error.ts';
import { convertDifyDsl, type DifyConvertContext } from './convert.ts';
import { readDifyDsl } from './dsl-reader.ts';

export interface DifyTaskRequest {
  content: string;
  context: DifyConvertContext;
}

export async function runDifyTask(request: DifyTaskRequest) {
  return convertDifyDsl(readDifyDsl(request.content), request.context);
}

/** A catalogue error reaches the caller as a refusal: its key, and its parameters as JSON. */
export function difyRefusalOf(error: unknown): { code: string; detail: string } | null {
  if (error instanceof AppError) return { code: error.key, detail: JSON.stringify(error.params) };
  // Nesting deep enough to exhaust the stack while the tree is walked is a hostile file, not a bug.
  if (error instanceof RangeError)
    return { code: 'WORKFLOW_IMPORT_INVALID', detail: JSON.stringify({ detail: 'the YAML is nested too deeply.' }) };
  return null;
}
