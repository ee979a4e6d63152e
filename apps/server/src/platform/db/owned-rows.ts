import { and, eq, inArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { isUuid } from '../crypto.ts';
import type { Db } from './database.ts';

/** Reads inside a caller's transaction or outside it: the embedded database has one connection. */
export type Reader = Pick<Db, 'select'>;

/** A table of things a team owns, named: agents, workflows, knowledge bases. */
type TeamTable = PgTable & { id: PgColumn; spaceId: PgColumn; name: PgColumn };

/**
 * Which of `ids` are rows of `table` in this space. Another team's id reads exactly like a missing
 * one; what is not a uuid is not looked up.
 */
export async function ownedIds(reader: Reader, table: TeamTable, spaceId: string, ids: string[]) {
  const wanted = [...new Set(ids)].filter(isUuid);
  if (wanted.length === 0) return new Set<string>();
  const rows = await reader
    .select({ id: table.id })
    .from(table)
    .where(and(inArray(table.id, wanted), eq(table.spaceId, spaceId)));
  return new Set(rows.map((row) => row.id as string));
}

/** The names of these rows as they are now, by id (rows gone are left out). */
export async function namesById(reader: Reader, table: TeamTable, ids: string[]) {
  const wanted = [...new Set(ids)].filter(isUuid);
  const names = new Map<string, string>();
  if (wanted.length === 0) return names;
  const rows = await reader.select({ id: table.id, name: table.name }).from(table).where(inArray(table.id, wanted));
  for (const row of rows) names.set(row.id as string, row.name as string);
  return names;
}
