import { type SQL, sql } from 'drizzle-orm';
import type { Db } from './database.ts';

/** A transaction or the database itself: code that runs inside or outside a transaction takes this. */
export type Tx = Pick<Db, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;

/** The rows of a raw `db.execute(sql…)` result; both drivers answer `{ rows }`. */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** `a::uuid, b::uuid, …` for an `IN (…)` list of ids in raw SQL. */
export const idList = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

/**
 * The rows the planner expects a query to return, from its statistics: the query is planned, not
 * run (well under a millisecond), so a caller can choose between two ways of answering before
 * paying for either.
 */
export async function estimatedRows(db: Pick<Db, 'execute'>, query: SQL): Promise<number> {
  const [row] = rowsOf<{ 'QUERY PLAN': unknown }>(await db.execute(sql`explain (format json) ${query}`));
  const plan = typeof row?.['QUERY PLAN'] === 'string' ? JSON.parse(row['QUERY PLAN']) : row?.['QUERY PLAN'];
  return Number((plan as [{ Plan: { 'Plan Rows': number } }] | undefined)?.[0]?.Plan?.['Plan Rows'] ?? 0);
}

/** Whether `error`, or an error it wraps (drivers wrap differently), is PostgreSQL's `code` (e.g. 23505 unique_violation). */
export function hasPgCode(error: unknown, code: string): boolean {
  for (let e = error as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === code) return true;
  }
  return false;
}

/** A PostgreSQL unique_violation of the index `constraint` (a table may have several), however the driver wraps it. */
export function isUniqueViolationOf(error: unknown, constraint: string): boolean {
  type Wrapped = { code?: string; constraint?: string; message?: string; cause?: unknown };
  for (let e = error as Wrapped | undefined; e; e = e.cause as Wrapped | undefined) {
    if (e.code === '23505') return e.constraint === constraint || (e.message ?? '').includes(constraint);
  }
  return false;
}
