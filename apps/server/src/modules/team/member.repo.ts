import { type Member, maskPhone, type Role } from '@athena/contract';
import { and, asc, count, eq, ilike, like, or, type SQL } from 'drizzle-orm';
import { isUuid } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { escapeLike } from '../../platform/db/like.ts';
import { users } from '../auth/auth.schema.ts';
import { spaceMembers } from '../space/space.schema.ts';

export type MemberRepo = ReturnType<typeof createMemberRepo>;

/** `%` and `_` typed by a person are literal characters, not wildcards. */

const memberColumns = {
  userId: users.id,
  nickname: users.nickname,
  avatarUrl: users.avatarUrl,
  phone: users.phone,
  role: spaceMembers.role,
  joinedAt: spaceMembers.joinedAt,
};

interface MemberRow {
  userId: string;
  nickname: string;
  avatarUrl: string | null;
  phone: string | null;
  role: number;
  joinedAt: Date;
}

const toMember = (row: MemberRow, me: string): Member => ({
  user_id: row.userId,
  nickname: row.nickname,
  avatar_url: row.avatarUrl,
  phone_masked: row.phone ? maskPhone(row.phone) : null,
  role: row.role as Role,
  joined_at: row.joinedAt.toISOString(),
  is_me: row.userId === me,
});

export function createMemberRepo(db: Db) {
  const joined = () => db.select(memberColumns).from(spaceMembers).innerJoin(users, eq(users.id, spaceMembers.userId));

  return {
    async list(spaceId: string, me: string, query: { keyword?: string; page: number; pageSize: number }) {
      const conditions: SQL[] = [eq(spaceMembers.spaceId, spaceId)];
      const keyword = query.keyword;
      if (keyword) {
        const pattern = `%${escapeLike(keyword)}%`;
        // Phone numbers match by digits only, so nobody can read a number back from the mask.
        const byPhone = /^\d{3,11}$/.test(keyword) ? like(users.phone, pattern) : undefined;
        conditions.push(byPhone ? or(ilike(users.nickname, pattern), byPhone)! : ilike(users.nickname, pattern));
      }
      const where = and(...conditions);
      const rows = await joined()
        .where(where)
        .orderBy(asc(spaceMembers.role), asc(spaceMembers.joinedAt), asc(spaceMembers.userId))
        .limit(query.pageSize)
        .offset((query.page - 1) * query.pageSize);
      // Without a keyword the count needs no user rows at all.
      const counting = db.select({ total: count() }).from(spaceMembers);
      const [{ total }] = keyword
        ? await counting.innerJoin(users, eq(users.id, spaceMembers.userId)).where(where)
        : await counting.where(where);
      return { items: rows.map((row) => toMember(row, me)), total };
    },

    async get(spaceId: string, userId: string, me: string) {
      if (!isUuid(userId)) return null;
      const [row] = await joined()
        .where(and(eq(spaceMembers.spaceId, spaceId), eq(spaceMembers.userId, userId)))
        .limit(1);
      return row ? toMember(row, me) : null;
    },
  };
}
