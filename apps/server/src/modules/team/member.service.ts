import { grantOf, ROLE } from '@athena/contract';
import { and, eq } from 'drizzle-orm';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import type { InvalidationBus } from '../../platform/cache.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import type { SpaceRepo } from '../space/space.repo.ts';
import { spaceMembers } from '../space/space.schema.ts';
import type { AuditRepo } from './audit.repo.ts';
import type { MemberRepo } from './member.repo.ts';

export type MemberService = ReturnType<typeof createMemberService>;

/**
 * Membership changes. Removing someone deletes only their membership: what they created keeps
 * its creator id and stays in the team. Each change publishes `space:<id>`, so the removed person's
 * next call in this space answers 16023 on every process at once.
 */
export function createMemberService(deps: {
  db: Db;
  bus: InvalidationBus;
  spaces: SpaceRepo;
  members: MemberRepo;
  audit: AuditRepo;
}) {
  const { db, bus, members, audit } = deps;

  async function targetOf(ctx: AuthContext, spaceId: string, userId: string) {
    const target = await members.get(spaceId, userId, ctx.userId);
    if (!target) throw new AppError('NOT_FOUND');
    return target;
  }

  async function deleteMembership(spaceId: string, userId: string, event: Parameters<AuditRepo['record']>[0]) {
    await db.transaction(async (tx) => {
      await tx.delete(spaceMembers).where(and(eq(spaceMembers.spaceId, spaceId), eq(spaceMembers.userId, userId)));
      await audit.record(event, tx);
    });
    await bus.publish(`space:${spaceId}`);
  }

  return {
    list(ctx: AuthContext, query: { keyword?: string; page: number; page_size: number }) {
      const { id } = authorize(ctx, 'member.view');
      return members.list(id, ctx.userId, {
        keyword: query.keyword || undefined,
        page: query.page,
        pageSize: query.page_size,
      });
    },

    async updateRole(ctx: AuthContext, userId: string, role: 2 | 3) {
      const { id } = authorize(ctx, 'member.change_role');
      const target = await targetOf(ctx, id, userId);
      if (target.role === ROLE.creator) throw new AppError('CANNOT_MANAGE_MEMBER');
      if (target.role !== role) {
        await db.transaction(async (tx) => {
          await tx
            .update(spaceMembers)
            .set({ role })
            .where(and(eq(spaceMembers.spaceId, id), eq(spaceMembers.userId, userId)));
          await audit.record(
            {
              spaceId: id,
              actorId: ctx.userId,
              action: 'member.role_change',
              targetUserId: userId,
              details: { from: target.role, to: role },
            },
            tx,
          );
        });
        await bus.publish(`space:${id}`);
      }
      return (await members.get(id, userId, ctx.userId))!;
    },

    async remove(ctx: AuthContext, userId: string) {
      const space = authorize(ctx, 'member.view');
      if (grantOf(space.role, 'member.remove') === 'none') throw new AppError('FORBIDDEN');
      const target = await targetOf(ctx, space.id, userId);
      if (target.is_me) throw new AppError('BAD_REQUEST', { detail: 'user_id: use leave to remove yourself' });
      authorize(ctx, 'member.remove', { targetRole: target.role });
      await deleteMembership(space.id, userId, {
        spaceId: space.id,
        actorId: ctx.userId,
        action: 'member.remove',
        targetUserId: userId,
      });
    },

    async leave(ctx: AuthContext) {
      const space = authorize(ctx, 'member.view');
      const summary = await deps.spaces.getForUser(space.id, ctx.userId);
      if (summary?.personal) throw new AppError('PERSONAL_SPACE_LOCKED');
      if (space.role === ROLE.creator) throw new AppError('CREATOR_CANNOT_LEAVE');
      await deleteMembership(space.id, ctx.userId, { spaceId: space.id, actorId: ctx.userId, action: 'member.leave' });
    },
  };
}
