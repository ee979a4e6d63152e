import type { RunResult } from '@athena/contract';

/** Empty for the four results: null, undefined, '', [] and {}. */
export function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object')
    return Object.getPrototypeOf(value) === Object.prototype && Object.keys(value).length === 0;
  return false;
}

/**
 * The one result of a finished run, checked in this order:
 * - `failed`: the run aborted (an unhandled node error, a time or step limit, a cancellation);
 * - `has_error`: it finished, but some node failed and its error strategy handled it (a default
 *   value or the fail branch);
 * - `empty_output`: it finished without error, but every output of its end nodes and every answer
 *   text is empty (also when no end or answer node ran);
 * - `succeeded`: otherwise.
 */
export function runResultOf(run: {
  aborted: boolean;
  handled: boolean;
  /** Each end node's outputs, as they finished. */
  endOutputs: ReadonlyArray<Record<string, unknown>>;
  answers: readonly string[];
}): RunResult {
  if (run.aborted) return 'failed';
  if (run.handled) return 'has_error';
  const values = [...run.endOutputs.flatMap((outputs) => Object.values(outputs)), ...run.answers];
  if (values.every(isEmptyValue)) return 'empty_output';
  return 'succeeded';
}
