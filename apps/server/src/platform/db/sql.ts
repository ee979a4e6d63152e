import { sql } from 'drizzle-orm';
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
