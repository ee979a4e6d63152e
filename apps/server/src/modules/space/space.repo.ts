import type { Role, SpaceSummary } from '@athena/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import { type InvalidationBus, TaggedCache } from '../../platform/cache.ts';
import { isUuid } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { spaceMembers, spaces } from './space.schema.ts';

const memberCount = sql<number>`(select count(*)::int from ${spaceMembers} m where m.space_id = ${spaces.id})`;

const summaryColumns = {
  id: spaces.id,
  name: spaces.name,
  role: spaceMembers.role,
  balance: spaces.balance,
  personal: spaces.personal,
  memberCount,
  createdAt: spaces.createdAt,
};

interface SummaryRow {
  id: string;
  name: string;
  role: number;
  balance: number;
  personal: boolean;
  memberCount: number;
  createdAt: Date;
}

const toSummary = (row: SummaryRow): SpaceSummary => ({
  id: row.id,
  name: row.name,
  role: row.role as Role,
  balance: Number(row.balance),
  personal: row.personal,
  member_count: Number(row.memberCount),
  created_at: row.createdAt.toISOString(),
});

export type SpaceRepo = ReturnType<typeof createSpaceRepo>;

/**
 * Every read is through membership: a space the user is not in behaves exactly like a missing one.
 * Membership summaries are cached per (space, user); any write to a space, its balance or its
 * members must publish `space:<id>` (see docs/architecture.md).
 */
export function createSpaceRepo(db: Db, bus: InvalidationBus) {
  const memberships = new TaggedCache<SpaceSummary>(60_000);
  bus.subscribe((key) => (key === '*' ? memberships.clear() : memberships.invalidate(key)));

  const joined = () =>
    db.select(summaryColumns).from(spaceMembers).innerJoin(spaces, eq(spaces.id, spaceMembers.spaceId));

  async function getForUser(spaceId: string, userId: string): Promise<SpaceSummary | null> {
    if (!isUuid(spaceId)) return null;
    const key = `${spaceId}:${userId}`;
    const cached = memberships.get(key);
    if (cached) return cached;
    const [row] = await joined()
      .where(and(eq(spaceMembers.spaceId, spaceId), eq(spaceMembers.userId, userId)))
      .limit(1);
    if (!row) return null;
    const summary = toSummary(row);
    memberships.set(key, summary, [`space:${spaceId}`, `user:${userId}`]);
    return summary;
  }

  return {
    getForUser,
    roleIn: async (spaceId: string, userId: string): Promise<Role | null> =>
      (await getForUser(spaceId, userId))?.role ?? null,

    async listForUser(userId: string) {
      const rows = await joined()
        .where(eq(spaceMembers.userId, userId))
        .orderBy(asc(spaceMembers.joinedAt), asc(spaces.id));
      return rows.map(toSummary);
    },
  };
}
