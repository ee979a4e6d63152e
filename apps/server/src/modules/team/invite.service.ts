import { randomBytes } from 'node:crypto';
import { INVITE_EXPIRY, type Invite, type InviteExpiry, type InviteStatus, ROLE } from '@athena/contract';
import { and, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import type { InvalidationBus } from '../../platform/cache.ts';
import { isUuid } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { users } from '../auth/auth.schema.ts';
import type { SpaceRepo } from '../space/space.repo.ts';
import { spaceMembers, spaces } from '../space/space.schema.ts';
import type { AuditRepo } from './audit.repo.ts';
import { spaceInvites } from './team.schema.ts';

export type InviteService = ReturnType<typeof createInviteService>;
type InviteRow = typeof spaceInvites.$inferSelect;

const STATUS_ERRORS = {
  expired: 'INVITE_EXPIRED',
  revoked: 'INVITE_REVOKED',
  exhausted: 'INVITE_EXHAUSTED',
} as const;

/** Invite links: only roles that may invite can see or make them; joining is idempotent. */
export function createInviteService(deps: {
  db: Db;
  bus: InvalidationBus;
  spaces: SpaceRepo;
  audit: AuditRepo;
  publicUrl: string;
  now: () => Date;
}) {
  const { db, bus, audit, now } = deps;

  function statusOf(row: InviteRow, at = now()): InviteStatus {
    if (row.revokedAt) return 'revoked';
    if (row.expiresAt && row.expiresAt <= at) return 'expired';
    if (row.maxUses !== null && row.useCount >= row.maxUses) return 'exhausted';
    return 'active';
  }

  const toInvite = (row: InviteRow, creator: { id: string; nickname: string; avatarUrl: string | null }): Invite => ({
    id: row.id,
    code: row.code,
    url: `${deps.publicUrl.replace(/\/$/, '')}/invite/${row.code}`,
    created_by: { id: creator.id, nickname: creator.nickname, avatar_url: creator.avatarUrl },
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt?.toISOString() ?? null,
    max_uses: row.maxUses,
    use_count: row.useCount,
    status: statusOf(row),
  });

  async function findByCode(code: string) {
    const [row] = await db
      .select({ invite: spaceInvites, inviter: users, space: spaces })
      .from(spaceInvites)
      .innerJoin(users, eq(users.id, spaceInvites.createdBy))
      .innerJoin(spaces, eq(spaces.id, spaceInvites.spaceId))
      .where(eq(spaceInvites.code, code))
      .limit(1);
    if (!row) throw new AppError('INVITE_NOT_FOUND');
    return row;
  }

  async function personalGuard(ctx: AuthContext, spaceId: string) {
    const space = await deps.spaces.getForUser(spaceId, ctx.userId);
    if (space?.personal) throw new AppError('PERSONAL_SPACE_LOCKED');
  }

  return {
    async create(ctx: AuthContext, expiresIn: InviteExpiry, maxUses: 'once' | 'unlimited') {
      const { id } = authorize(ctx, 'member.invite');
      await personalGuard(ctx, id);
      const at = now();
      const seconds = INVITE_EXPIRY[expiresIn];
      const row = await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(spaceInvites)
          .values({
            spaceId: id,
            code: randomBytes(12).toString('base64url'),
            createdBy: ctx.userId,
            createdAt: at,
            expiresAt: seconds === null ? null : new Date(at.getTime() + seconds * 1000),
            maxUses: maxUses === 'once' ? 1 : null,
          })
          .returning();
        await audit.record(
          {
            spaceId: id,
            actorId: ctx.userId,
            action: 'invite.create',
            details: { invite_id: created.id, expires_in: expiresIn, max_uses: maxUses },
          },
          tx,
        );
        return created;
      });
      const [me] = await db.select().from(users).where(eq(users.id, ctx.userId)).limit(1);
      return toInvite(row, me);
    },

    async list(ctx: AuthContext) {
      const { id } = authorize(ctx, 'member.invite');
      const rows = await db
        .select({ invite: spaceInvites, creator: users })
        .from(spaceInvites)
        .innerJoin(users, eq(users.id, spaceInvites.createdBy))
        .where(eq(spaceInvites.spaceId, id))
        .orderBy(desc(spaceInvites.createdAt))
        .limit(200);
      return { items: rows.map((row) => toInvite(row.invite, row.creator)) };
    },

    async revoke(ctx: AuthContext, inviteId: string) {
      const { id } = authorize(ctx, 'invite.revoke');
      if (!isUuid(inviteId)) throw new AppError('NOT_FOUND');
      await db.transaction(async (tx) => {
        const revoked = await tx
          .update(spaceInvites)
          .set({ revokedAt: now() })
          .where(and(eq(spaceInvites.id, inviteId), eq(spaceInvites.spaceId, id), isNull(spaceInvites.revokedAt)))
          .returning({ id: spaceInvites.id });
        if (revoked.length === 0) {
          const [exists] = await tx
            .select({ id: spaceInvites.id })
            .from(spaceInvites)
            .where(and(eq(spaceInvites.id, inviteId), eq(spaceInvites.spaceId, id)));
          if (!exists) throw new AppError('NOT_FOUND');
          return; // already revoked: nothing to do
        }
        await audit.record(
          { spaceId: id, actorId: ctx.userId, action: 'invite.revoke', details: { invite_id: inviteId } },
          tx,
        );
      });
    },

    /** What the invite page shows, signed in or not. */
    async preview(code: string, viewerId: string | null) {
      const { invite, inviter, space } = await findByCode(code);
      const [{ memberCount }] = await db
        .select({ memberCount: sql<number>`count(*)::int` })
        .from(spaceMembers)
        .where(eq(spaceMembers.spaceId, space.id));
      const alreadyMember = viewerId ? (await deps.spaces.roleIn(space.id, viewerId)) !== null : null;
      return {
        team_name: space.name,
        member_count: memberCount,
        inviter: { nickname: inviter.nickname, avatar_url: inviter.avatarUrl },
        status: space.dissolvedAt ? ('revoked' as const) : statusOf(invite),
        already_member: alreadyMember,
      };
    },

    async accept(ctx: AuthContext, code: string) {
      const { invite, space } = await findByCode(code);
      if (space.dissolvedAt) throw new AppError('INVITE_REVOKED');
      const existing = await deps.spaces.getForUser(space.id, ctx.userId);
      if (existing) return { space: existing, already_member: true };

      const status = statusOf(invite);
      if (status !== 'active') throw new AppError(STATUS_ERRORS[status]);
      await db.transaction(async (tx) => {
        // The conditional increment is what enforces the use limit under concurrent joins.
        const at = now();
        const counted = await tx
          .update(spaceInvites)
          .set({ useCount: sql`${spaceInvites.useCount} + 1` })
          .where(
            and(
              eq(spaceInvites.id, invite.id),
              isNull(spaceInvites.revokedAt),
              or(isNull(spaceInvites.expiresAt), gt(spaceInvites.expiresAt, at)),
              or(isNull(spaceInvites.maxUses), lt(spaceInvites.useCount, spaceInvites.maxUses)),
            ),
          )
          .returning({ id: spaceInvites.id });
        if (counted.length === 0) throw new AppError('INVITE_EXHAUSTED');
        await tx
          .insert(spaceMembers)
          .values({ spaceId: space.id, userId: ctx.userId, role: ROLE.member })
          .onConflictDoNothing();
        await audit.record(
          { spaceId: space.id, actorId: ctx.userId, action: 'member.join', details: { invite_id: invite.id } },
          tx,
        );
      });
      await bus.publish(`space:${space.id}`);
      return { space: (await deps.spaces.getForUser(space.id, ctx.userId))!, already_member: false };
    },
  };
}
