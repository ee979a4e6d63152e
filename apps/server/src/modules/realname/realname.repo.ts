import { and, desc, eq, ne } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { users } from '../auth/auth.schema.ts';
import { realNameVerifications } from './realname.schema.ts';

export type RealNameRepo = ReturnType<typeof createRealNameRepo>;
export type RealNameRow = typeof realNameVerifications.$inferSelect;
export type NewRealNameRow = typeof realNameVerifications.$inferInsert;

const t = realNameVerifications;

export function createRealNameRepo(db: Db) {
  return {
    /** The attempt the person sees: their newest one. */
    async latest(userId: string): Promise<RealNameRow | undefined> {
      const [row] = await db.select().from(t).where(eq(t.userId, userId)).orderBy(desc(t.createdAt)).limit(1);
      return row;
    },

    async findByToken(userId: string, providerToken: string): Promise<RealNameRow | undefined> {
      const [row] = await db
        .select()
        .from(t)
        .where(and(eq(t.userId, userId), eq(t.providerToken, providerToken)))
        .limit(1);
      return row;
    },

    async isVerified(userId: string) {
      const [row] = await db
        .select({ id: t.id })
        .from(t)
        .where(and(eq(t.userId, userId), eq(t.state, 'verified')))
        .limit(1);
      return Boolean(row);
    },

    /**
     * Stores a new attempt in place of the person's earlier unfinished or failed ones, so at most
     * one set of (encrypted) identity data is kept per person. Answers false, storing nothing,
     * when they are verified by now. The user row lock serialises two starts of one person.
     */
    async replaceOpenAttempt(row: NewRealNameRow): Promise<boolean> {
      return db.transaction(async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, row.userId)).for('update');
        const [verified] = await tx
          .select({ id: t.id })
          .from(t)
          .where(and(eq(t.userId, row.userId), eq(t.state, 'verified')))
          .limit(1);
        if (verified) return false;
        await tx.delete(t).where(and(eq(t.userId, row.userId), ne(t.state, 'verified')));
        await tx.insert(t).values(row);
        return true;
      });
    },

    /** Records the outcome once: only a pending attempt changes, so two refreshes cannot both win. */
    async complete(
      id: string,
      outcome: { state: 'verified' | 'failed'; failureReason: string | null; completedAt: Date },
    ): Promise<RealNameRow | undefined> {
      const [row] = await db
        .update(t)
        .set(outcome)
        .where(and(eq(t.id, id), eq(t.state, 'pending')))
        .returning();
      return row;
    },
  };
}
