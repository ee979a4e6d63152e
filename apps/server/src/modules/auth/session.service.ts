import { and, desc, eq, gt, isNull, lt, ne, or } from 'drizzle-orm';
import { type InvalidationBus, TaggedCache } from '../../platform/cache.ts';
import { isUuid, newToken, sha256 } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { sessions } from './auth.schema.ts';

const DAY_MS = 86_400_000;
/** Sliding expiry is written at most this often, so a busy client does not write on every call. */
const TOUCH_INTERVAL_MS = 3_600_000;

export type SessionService = ReturnType<typeof createSessionService>;

interface CachedSession {
  sessionId: string;
  userId: string;
  lastSeenAt: number;
  expiresAt: number;
}

export function createSessionService(deps: { db: Db; ttlDays: number; now: () => Date; bus: InvalidationBus }) {
  const { db, now, bus } = deps;
  const ttlMs = deps.ttlDays * DAY_MS;
  // Every authenticated call starts here; revocation reaches all processes through the bus.
  const cache = new TaggedCache<CachedSession>(60_000);
  bus.subscribe((key) => (key === '*' ? cache.clear() : cache.invalidate(key)));

  async function lookup(tokenHash: string, at: Date): Promise<CachedSession | null> {
    const cached = cache.get(tokenHash);
    if (cached && cached.expiresAt > at.getTime()) return cached;
    const [row] = await db
      .select({
        id: sessions.id,
        userId: sessions.userId,
        lastSeenAt: sessions.lastSeenAt,
        expiresAt: sessions.expiresAt,
      })
      .from(sessions)
      .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt), gt(sessions.expiresAt, at)))
      .limit(1);
    if (!row) return null;
    const session = {
      sessionId: row.id,
      userId: row.userId,
      lastSeenAt: row.lastSeenAt.getTime(),
      expiresAt: row.expiresAt.getTime(),
    };
    cache.set(tokenHash, session, [`session:${row.id}`, `user:${row.userId}`]);
    return session;
  }

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
      const session = await lookup(sha256(token), at);
      if (!session) return null;
      if (at.getTime() - session.lastSeenAt > TOUCH_INTERVAL_MS) {
        session.lastSeenAt = at.getTime();
        session.expiresAt = at.getTime() + ttlMs;
        await db
          .update(sessions)
          .set({ lastSeenAt: at, expiresAt: new Date(session.expiresAt) })
          .where(eq(sessions.id, session.sessionId));
      }
      return { sessionId: session.sessionId, userId: session.userId };
    },

    async revoke(sessionId: string) {
      await db.update(sessions).set({ revokedAt: now() }).where(eq(sessions.id, sessionId));
      await bus.publish(`session:${sessionId}`);
    },

    /** The user's usable sessions, most recently used first. */
    async listForUser(userId: string) {
      return db
        .select({
          id: sessions.id,
          userAgent: sessions.userAgent,
          ip: sessions.ip,
          createdAt: sessions.createdAt,
          lastSeenAt: sessions.lastSeenAt,
        })
        .from(sessions)
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now())))
        .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
    },

    /** Revokes one of the user's own live sessions; false for anyone else's, a dead or an unknown one. */
    async revokeOwn(userId: string, sessionId: string) {
      if (!isUuid(sessionId)) return false;
      const at = now();
      const revoked = await db
        .update(sessions)
        .set({ revokedAt: at })
        .where(
          and(
            eq(sessions.id, sessionId),
            eq(sessions.userId, userId),
            isNull(sessions.revokedAt),
            gt(sessions.expiresAt, at),
          ),
        )
        .returning({ id: sessions.id });
      if (revoked.length === 0) return false;
      await bus.publish(`session:${sessionId}`);
      return true;
    },

    /** Signs the user out everywhere except `keepId`; returns how many sessions ended. */
    async revokeOthers(userId: string, keepId: string) {
      const at = now();
      const revoked = await db
        .update(sessions)
        .set({ revokedAt: at })
        .where(
          and(
            eq(sessions.userId, userId),
            ne(sessions.id, keepId),
            isNull(sessions.revokedAt),
            gt(sessions.expiresAt, at),
          ),
        )
        .returning({ id: sessions.id });
      for (const { id } of revoked) await bus.publish(`session:${id}`);
      return revoked.length;
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
