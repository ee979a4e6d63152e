import type { AuditAction, AuditEntry } from '@athena/contract';
import { and, count, desc, eq, gte, lte, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/db/database.ts';
import { users } from '../auth/auth.schema.ts';
import { auditLogs } from './team.schema.ts';

export type AuditRepo = ReturnType<typeof createAuditRepo>;
type Details = Record<string, string | number | boolean | null>;
/** A transaction or the database: audit rows are written in the same transaction as the change. */
type Writer = Pick<Db, 'insert'>;

export interface AuditEvent {
  spaceId: string;
  actorId: string;
  action: AuditAction;
  targetUserId?: string;
  details?: Details;
}

const actor = alias(users, 'actor');
const target = alias(users, 'target');

export function createAuditRepo(db: Db) {
  return {
    async record(event: AuditEvent, writer: Writer = db) {
      await writer.insert(auditLogs).values({
        spaceId: event.spaceId,
        actorId: event.actorId,
        action: event.action,
        targetUserId: event.targetUserId,
        details: event.details ?? {},
      });
    },

    async list(
      spaceId: string,
      filter: { action?: AuditAction; from?: string; to?: string; page: number; pageSize: number },
    ) {
      const conditions: SQL[] = [eq(auditLogs.spaceId, spaceId)];
      if (filter.action) conditions.push(eq(auditLogs.action, filter.action));
      if (filter.from) conditions.push(gte(auditLogs.createdAt, new Date(filter.from)));
      if (filter.to) conditions.push(lte(auditLogs.createdAt, new Date(filter.to)));
      const where = and(...conditions);
      const rows = await db
        .select({
          id: auditLogs.id,
          action: auditLogs.action,
          details: auditLogs.details,
          createdAt: auditLogs.createdAt,
          actorId: actor.id,
          actorNickname: actor.nickname,
          actorAvatar: actor.avatarUrl,
          targetId: target.id,
          targetNickname: target.nickname,
          targetAvatar: target.avatarUrl,
        })
        .from(auditLogs)
        .innerJoin(actor, eq(actor.id, auditLogs.actorId))
        .leftJoin(target, eq(target.id, auditLogs.targetUserId))
        .where(where)
        .orderBy(desc(auditLogs.createdAt), desc(auditLogs.id))
        .limit(filter.pageSize)
        .offset((filter.page - 1) * filter.pageSize);
      const [{ total }] = await db.select({ total: count() }).from(auditLogs).where(where);
      const items: AuditEntry[] = rows.map((row) => ({
        id: row.id,
        action: row.action as AuditAction,
        actor: { id: row.actorId, nickname: row.actorNickname, avatar_url: row.actorAvatar },
        target: row.targetId
          ? { id: row.targetId, nickname: row.targetNickname ?? '', avatar_url: row.targetAvatar }
          : null,
        details: row.details,
        created_at: row.createdAt.toISOString(),
      }));
      return { items, total };
    },
  };
}
