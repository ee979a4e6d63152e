import { actionsFor, formatFen, ROLE } from '@athena/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import type { InvalidationBus } from '../../platform/cache.ts';
import type { Db } from '../../platform/db/database.ts';
import { rowsOf } from '../../platform/db/sql.ts';
import type { BroadcastEvents, Channel } from '../../platform/events.ts';
import { AppError } from '../../platform/http/app-error.ts';
import type { Ledger } from '../billing/index.ts';
import type { SpaceRepo } from '../space/space.repo.ts';
import { spaceMembers, spaces } from '../space/space.schema.ts';
import type { AuditRepo } from './audit.repo.ts';
import type { MemberRepo } from './member.repo.ts';
import { spaceInvites } from './team.schema.ts';

export type TeamService = ReturnType<typeof createTeamService>;

/** Team lifecycle: create, rename, dissolve, transfer ownership. Every write is audited. */
export function createTeamService(deps: {
  db: Db;
  bus: InvalidationBus;
  spaces: SpaceRepo;
  members: MemberRepo;
  audit: AuditRepo;
  ledger: Pick<Ledger, 'postIn'>;
  now: () => Date;
  dissolved: Channel<BroadcastEvents['team.dissolved']>;
}) {
  const { db, bus, audit } = deps;

  async function currentSpace(ctx: AuthContext) {
    const space = ctx.space ? await deps.spaces.getForUser(ctx.space.id, ctx.userId) : null;
    if (!space) throw new AppError('SPACE_UNAVAILABLE');
    return space;
  }

  return {
    permissions(ctx: AuthContext) {
      const space = authorize(ctx, 'member.view');
      return { role: space.role, actions: actionsFor(space.role) };
    },

    async create(ctx: AuthContext, name: string) {
      const spaceId = await db.transaction(async (tx) => {
        const [space] = await tx.insert(spaces).values({ name, creatorId: ctx.userId }).returning({ id: spaces.id });
        await tx.insert(spaceMembers).values({ spaceId: space.id, userId: ctx.userId, role: ROLE.creator });
        await audit.record({ spaceId: space.id, actorId: ctx.userId, action: 'team.create', details: { name } }, tx);
        return space.id;
      });
      return (await deps.spaces.getForUser(spaceId, ctx.userId))!;
    },

    async rename(ctx: AuthContext, name: string) {
      const { id } = authorize(ctx, 'team.rename');
      const before = await currentSpace(ctx);
      await db.transaction(async (tx) => {
        await tx.update(spaces).set({ name }).where(eq(spaces.id, id));
        await audit.record(
          { spaceId: id, actorId: ctx.userId, action: 'team.rename', details: { from: before.name, to: name } },
          tx,
        );
      });
      await bus.publish(`space:${id}`);
      return (await deps.spaces.getForUser(id, ctx.userId))!;
    },

    /**
     * Dissolving keeps the space row, its audit trail and everything its members created, but
     * removes every member and revokes every invite, so the team is gone for everyone at once.
     */
    async dissolve(ctx: AuthContext, confirmName: string, forfeitBalance: boolean) {
      const { id } = authorize(ctx, 'team.dissolve');
      const space = await currentSpace(ctx);
      if (space.personal) throw new AppError('PERSONAL_SPACE_LOCKED');
      if (confirmName.trim() !== space.name) throw new AppError('DISSOLVE_CONFIRM_MISMATCH');
      if (space.balance > 0 && !forfeitBalance) {
        throw new AppError('DISSOLVE_BALANCE', { amount: formatFen(space.balance) });
      }
      const at = deps.now();
      await db.transaction(async (tx) => {
        // The balance read again under the team's row lock, which settling a payment takes too: a
        // recharge credited meanwhile is given up only when that was agreed, and none lands after.
        const [locked] = rowsOf<{ balance: number | string }>(
          await tx.execute(sql`select balance from spaces where id = ${id}::uuid for update`),
        );
        const balance = Number(locked?.balance ?? 0);
        if (balance > 0 && !forfeitBalance) throw new AppError('DISSOLVE_BALANCE', { amount: formatFen(balance) });
        // What is left is given up in the ledger, with the dissolve: the balance ends at zero.
        if (balance > 0) {
          await deps.ledger.postIn(tx, {
            spaceId: id,
            kind: 'forfeit',
            amount: -balance,
            idempotencyKey: `forfeit:${id}`,
            actorId: ctx.userId,
          });
        }
        await tx.update(spaces).set({ dissolvedAt: at }).where(eq(spaces.id, id));
        await tx.delete(spaceMembers).where(eq(spaceMembers.spaceId, id));
        await tx
          .update(spaceInvites)
          .set({ revokedAt: at })
          .where(and(eq(spaceInvites.spaceId, id), isNull(spaceInvites.revokedAt)));
        await audit.record(
          { spaceId: id, actorId: ctx.userId, action: 'team.dissolve', details: { forfeited_balance: balance } },
          tx,
        );
      });
      await bus.publish(`space:${id}`);
      await deps.dissolved.send({ spaceId: id });
    },

    /** The new owner becomes creator (role 1); the old one stays on as admin. */
    async transfer(ctx: AuthContext, targetUserId: string) {
      const { id } = authorize(ctx, 'team.transfer');
      const target = await deps.members.get(id, targetUserId, ctx.userId);
      if (!target) throw new AppError('NOT_FOUND');
      if (target.is_me) throw new AppError('BAD_REQUEST', { detail: 'user_id: that is you' });
      await db.transaction(async (tx) => {
        await tx
          .update(spaceMembers)
          .set({ role: ROLE.creator })
          .where(and(eq(spaceMembers.spaceId, id), eq(spaceMembers.userId, targetUserId)));
        await tx
          .update(spaceMembers)
          .set({ role: ROLE.admin })
          .where(and(eq(spaceMembers.spaceId, id), eq(spaceMembers.userId, ctx.userId)));
        await tx.update(spaces).set({ creatorId: targetUserId }).where(eq(spaces.id, id));
        await audit.record({ spaceId: id, actorId: ctx.userId, action: 'team.transfer', targetUserId }, tx);
      });
      await bus.publish(`space:${id}`);
    },
  };
}
