import { and, eq, gt, isNull, lt, or } from 'drizzle-orm';
import { newToken, sha256 } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { sessions } from '../../platform/db/schema.ts';

const DAY_MS = 86_400_000;
/** Sliding expiry is written at most this often, so a busy client does not write on every call. */
const TOUCH_INTERVAL_MS = 3_600_000;

export type SessionService = ReturnType<typeof createSessionService>;

export function createSessionService(deps: { db: Db; ttlDays: number; now: () => Date }) {
  const { db, now } = deps;
  const ttlMs = deps.ttlDays * DAY_MS;

  return {
    async create(userId: string, meta: { ip: string; userAgent?: string }) {
      const token = newToken();
      const at = now();
      await db.insert(sessions).values({
        userId,
        tokenHash: sha256(token),
        ip: meta.ip,
        userAgent: meta.userAgent?.slice(0, 300),
        createdAt: at,
        lastSeenAt: at,
        expiresAt: new Date(at.getTime() + ttlMs),
      });
      return token;
    },

    async resolve(token: string) {
      const at = now();
      const [row] = await db
        .select({ id: sessions.id, userId: sessions.userId, lastSeenAt: sessions.lastSeenAt })
        .from(sessions)
        .where(and(eq(sessions.tokenHash, sha256(token)), isNull(sessions.revokedAt), gt(sessions.expiresAt, at)))
        .limit(1);
      if (!row) return null;
      if (at.getTime() - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
        await db
          .update(sessions)
          .set({ lastSeenAt: at, expiresAt: new Date(at.getTime() + ttlMs) })
          .where(eq(sessions.id, row.id));
      }
      return { sessionId: row.id, userId: row.userId };
    },

    async revoke(sessionId: string) {
      await db.update(sessions).set({ revokedAt: now() }).where(eq(sessions.id, sessionId));
    },

    /** Drops sessions that can no longer be used; kept a week for support questions. */
    async purge() {
      const cutoff = new Date(now().getTime() - 7 * DAY_MS);
      const removed = await db
        .delete(sessions)
        .where(or(lt(sessions.expiresAt, cutoff), lt(sessions.revokedAt, cutoff)))
        .returning({ id: sessions.id });
      return removed.length;
    },
  };
}
