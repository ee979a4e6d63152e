import { and, count, desc, eq, gt, isNull, lt, max, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import type { Tx } from '../../platform/db/sql.ts';
import { smsCodes } from './auth.schema.ts';

export type SmsCodeRepo = ReturnType<typeof createSmsCodeRepo>;
export type NewSmsCode = Omit<typeof smsCodes.$inferInsert, 'id' | 'attempts' | 'consumedAt'>;

export function createSmsCodeRepo(db: Db) {
  return {
    /**
     * Runs `work` in a transaction that holds the number's lock: one request per number at a time,
     * so parallel requests cannot all pass the same wait.
     */
    async forPhone<T>(phone: string, work: (tx: Tx) => Promise<T>): Promise<T> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`sms:${phone}`}, 0))`);
        return work(tx);
      });
    },

    /** How many codes the number got since `since`, and when the latest of them was made. */
    async sentSince(tx: Tx, phone: string, since: Date) {
      const [recent] = await tx
        .select({ sent: count(), latest: max(smsCodes.createdAt) })
        .from(smsCodes)
        .where(and(eq(smsCodes.phone, phone), gt(smsCodes.createdAt, since)));
      return { sent: recent?.sent ?? 0, latest: recent?.latest ?? null };
    },

    /** Stores a new code; any earlier one still open for the number and purpose is closed. */
    async replace(tx: Tx, code: NewSmsCode) {
      await tx
        .update(smsCodes)
        .set({ consumedAt: code.createdAt })
        .where(and(eq(smsCodes.phone, code.phone), eq(smsCodes.purpose, code.purpose), isNull(smsCodes.consumedAt)));
      const [row] = await tx.insert(smsCodes).values(code).returning({ id: smsCodes.id });
      return row.id;
    },

    async remove(id: string) {
      await db.delete(smsCodes).where(eq(smsCodes.id, id));
    },

    /** The newest open code of the number for the purpose. */
    async latestOpen(phone: string, purpose: string) {
      const [row] = await db
        .select()
        .from(smsCodes)
        .where(and(eq(smsCodes.phone, phone), eq(smsCodes.purpose, purpose), isNull(smsCodes.consumedAt)))
        .orderBy(desc(smsCodes.createdAt))
        .limit(1);
      return row;
    },

    /** Counts a wrong guess in SQL, so parallel wrong guesses cannot share one attempt. */
    async countAttempt(id: string) {
      const [counted] = await db
        .update(smsCodes)
        .set({ attempts: sql`${smsCodes.attempts} + 1` })
        .where(eq(smsCodes.id, id))
        .returning({ attempts: smsCodes.attempts });
      return counted.attempts;
    },

    /** Closes the code; false when it was already closed (the condition makes a code single-use). */
    async close(id: string, at: Date) {
      const closed = await db
        .update(smsCodes)
        .set({ consumedAt: at })
        .where(and(eq(smsCodes.id, id), isNull(smsCodes.consumedAt)))
        .returning({ id: smsCodes.id });
      return closed.length > 0;
    },

    async removeOlderThan(before: Date) {
      const removed = await db.delete(smsCodes).where(lt(smsCodes.createdAt, before)).returning({ id: smsCodes.id });
      return removed.length;
    },
  };
}
