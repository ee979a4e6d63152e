import type { CustomBusinessStatus } from '@athena/contract';
import { and, asc, count, desc, eq, gte, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { escapeLike } from '../../platform/db/like.ts';
import { users } from '../auth/auth.schema.ts';
import { spaces } from '../space/space.schema.ts';
import {
  customBusinessAttachments as attachments,
  customBusinessStatusHistory as history,
  customBusinessRequests as requests,
} from './custom-business.schema.ts';

export type CustomBusinessRepo = ReturnType<typeof createCustomBusinessRepo>;
/** A transaction or the database itself. */
type Runner = Pick<Db, 'select' | 'insert' | 'update'>;

export type RequestRow = typeof requests.$inferSelect;
export type AttachmentRow = typeof attachments.$inferSelect;
export type NewRequest = typeof requests.$inferInsert;

export interface ListQuery {
  status?: CustomBusinessStatus;
  keyword?: string;
  page: number;
  pageSize: number;
}

const summaryColumns = {
  request: requests,
  requesterNickname: users.nickname,
  requesterAvatar: users.avatarUrl,
  spaceName: spaces.name,
  attachmentCount: sql<number>`(select count(*)::int from ${attachments} where ${attachments.requestId} = ${requests.id})`,
};

export type SummaryRow = {
  request: RequestRow;
  requesterNickname: string;
  requesterAvatar: string | null;
  spaceName: string;
  attachmentCount: number;
};

export function createCustomBusinessRepo(db: Db) {
  const summaries = () =>
    db
      .select(summaryColumns)
      .from(requests)
      .innerJoin(users, eq(users.id, requests.requesterId))
      .innerJoin(spaces, eq(spaces.id, requests.spaceId));

  async function page(conditions: SQL[], query: ListQuery) {
    if (query.status) conditions.push(eq(requests.status, query.status));
    if (query.keyword) {
      const pattern = `%${escapeLike(query.keyword)}%`;
      conditions.push(or(ilike(requests.title, pattern), ilike(spaces.name, pattern))!);
    }
    const where = conditions.length ? and(...conditions) : undefined;
    const rows: SummaryRow[] = await summaries()
      .where(where)
      .orderBy(desc(requests.createdAt), desc(requests.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize);
    const [{ total }] = await db
      .select({ total: count() })
      .from(requests)
      .innerJoin(spaces, eq(spaces.id, requests.spaceId))
      .where(where);
    return { rows, total };
  }

  return {
    listInSpace: (spaceId: string, query: ListQuery) => page([eq(requests.spaceId, spaceId)], query),
    listAll: (query: ListQuery) => page([], query),

    async getSummary(id: string): Promise<SummaryRow | null> {
      const [row] = await summaries().where(eq(requests.id, id)).limit(1);
      return row ?? null;
    },

    async insertRequest(tx: Runner, values: NewRequest) {
      const [row] = await tx.insert(requests).values(values).returning();
      return row;
    },

    /**
     * Moves a request from `from` to `to` only if nobody moved it meanwhile; false when the status
     * had already changed (the caller reports the conflict).
     */
    async transition(tx: Runner, id: string, from: CustomBusinessStatus, patch: Partial<NewRequest>) {
      const rows = await tx
        .update(requests)
        .set(patch)
        .where(and(eq(requests.id, id), eq(requests.status, from)))
        .returning({ id: requests.id });
      return rows.length === 1;
    },

    async recordChange(tx: Runner, values: typeof history.$inferInsert) {
      await tx.insert(history).values(values);
    },

    history(requestId: string) {
      return db
        .select({ change: history, nickname: users.nickname, avatarUrl: users.avatarUrl })
        .from(history)
        .innerJoin(users, eq(users.id, history.actorId))
        .where(eq(history.requestId, requestId))
        .orderBy(asc(history.id));
    },

    async insertAttachment(values: typeof attachments.$inferInsert) {
      const [row] = await db.insert(attachments).values(values).returning();
      return row;
    },

    async getAttachment(id: string): Promise<AttachmentRow | null> {
      const [row] = await db.select().from(attachments).where(eq(attachments.id, id)).limit(1);
      return row ?? null;
    },

    attachmentsOf(requestId: string) {
      return db
        .select()
        .from(attachments)
        .where(eq(attachments.requestId, requestId))
        .orderBy(asc(attachments.createdAt), asc(attachments.id));
    },

    /** Uploads not yet part of a request, for the per-person cap on loose files. */
    async countLooseUploads(userId: string, since: Date) {
      const [{ total }] = await db
        .select({ total: count() })
        .from(attachments)
        .where(
          and(eq(attachments.uploadedBy, userId), isNull(attachments.requestId), gte(attachments.createdAt, since)),
        );
      return total;
    },

    /** Links the caller's own loose uploads in this space to a request; returns how many matched. */
    async claimAttachments(tx: Runner, ids: string[], owner: { spaceId: string; userId: string }, requestId: string) {
      if (ids.length === 0) return 0;
      const rows = await tx
        .update(attachments)
        .set({ requestId })
        .where(
          and(
            inArray(attachments.id, ids),
            eq(attachments.spaceId, owner.spaceId),
            eq(attachments.uploadedBy, owner.userId),
            isNull(attachments.requestId),
          ),
        )
        .returning({ id: attachments.id });
      return rows.length;
    },

    async phoneOf(userId: string) {
      const [row] = await db.select({ phone: users.phone }).from(users).where(eq(users.id, userId)).limit(1);
      return row?.phone ?? null;
    },
  };
}
