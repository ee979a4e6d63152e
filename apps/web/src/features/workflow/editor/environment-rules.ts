import type { EnvironmentVariable } from '@athena/contract';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
export type EnvironmentRefusal = 'nameInvalid' | 'nameTaken' | 'numberInvalid';

/** What is wrong with each row, by index; the rows are saved only when nothing is. */
export function environmentRefusals(rows: readonly EnvironmentVariable[]): Map<number, EnvironmentRefusal> {
  const refusals = new Map<number, EnvironmentRefusal>();
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    if (!NAME.test(row.name) || row.name.length > 64) refusals.set(index, 'nameInvalid');
    else if (seen.has(row.name)) refusals.set(index, 'nameTaken');
    else if (row.type === 'number' && (row.value.trim() === '' || !Number.isFinite(Number(row.value))))
      refusals.set(index, 'numberInvalid');
    seen.add(row.name);
  });
  return refusals;
}
