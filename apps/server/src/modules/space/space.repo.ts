import type { Role, SpaceSummary } from '@athena/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import { isUuid } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { spaceMembers, spaces } from '../../platform/db/schema.ts';

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

/** Every read is through membership: a space the user is not in behaves exactly like a missing one. */
export function createSpaceRepo(db: Db) {
  const joined = () =>
    db.select(summaryColumns).from(spaceMembers).innerJoin(spaces, eq(spaces.id, spaceMembers.spaceId));

  return {
    async roleIn(spaceId: string, userId: string): Promise<Role | null> {
      if (!isUuid(spaceId)) return null;
      const [row] = await db
        .select({ role: spaceMembers.role })
        .from(spaceMembers)
        .where(and(eq(spaceMembers.spaceId, spaceId), eq(spaceMembers.userId, userId)))
        .limit(1);
      return (row?.role as Role | undefined) ?? null;
    },

    async getForUser(spaceId: string, userId: string) {
      if (!isUuid(spaceId)) return null;
      const [row] = await joined()
        .where(and(eq(spaceMembers.spaceId, spaceId), eq(spaceMembers.userId, userId)))
        .limit(1);
      return row ? toSummary(row) : null;
    },

    async listForUser(userId: string) {
      const rows = await joined()
        .where(eq(spaceMembers.userId, userId))
        .orderBy(asc(spaceMembers.joinedAt), asc(spaces.id));
      return rows.map(toSummary);
    },
  };
}
