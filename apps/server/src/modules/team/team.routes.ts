import { inviteRoutes, teamRoutes } from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { authorize } from '../../platform/auth-guard.ts';
import { authedRoute, publicRoute } from '../../platform/http/route.ts';
import type { AuditRepo } from './audit.repo.ts';
import type { InviteService } from './invite.service.ts';
import type { MemberService } from './member.service.ts';
import type { TeamService } from './team.service.ts';

export interface TeamRouteDeps {
  teams: TeamService;
  members: MemberService;
  invites: InviteService;
  audit: AuditRepo;
}

export function registerTeamRoutes(app: FastifyInstance, deps: TeamRouteDeps) {
  const { teams, members, invites, audit } = deps;

  authedRoute(app, teamRoutes.create, (body, ctx) => teams.create(ctx, body.name));
  authedRoute(app, teamRoutes.update, (body, ctx) => teams.rename(ctx, body.name));
  authedRoute(app, teamRoutes.dissolve, async (body, ctx) => {
    await teams.dissolve(ctx, body.confirm_name, body.forfeit_balance);
    return null;
  });
  authedRoute(app, teamRoutes.transfer, async (body, ctx) => {
    await teams.transfer(ctx, body.user_id);
    return null;
  });
  authedRoute(app, teamRoutes.permissions, (_body, ctx) => teams.permissions(ctx));

  authedRoute(app, teamRoutes.memberList, (body, ctx) => members.list(ctx, body));
  authedRoute(app, teamRoutes.memberUpdateRole, (body, ctx) => members.updateRole(ctx, body.user_id, body.role));
  authedRoute(app, teamRoutes.memberRemove, async (body, ctx) => {
    await members.remove(ctx, body.user_id);
    return null;
  });
  authedRoute(app, teamRoutes.memberLeave, async (_body, ctx) => {
    await members.leave(ctx);
    return null;
  });

  authedRoute(app, teamRoutes.inviteCreate, (body, ctx) => invites.create(ctx, body.expires_in, body.max_uses));
  authedRoute(app, teamRoutes.inviteList, (_body, ctx) => invites.list(ctx));
  authedRoute(app, teamRoutes.inviteRevoke, async (body, ctx) => {
    await invites.revoke(ctx, body.id);
    return null;
  });

  authedRoute(app, teamRoutes.auditList, (body, ctx) => {
    const { id } = authorize(ctx, 'team.audit');
    return audit.list(id, {
      action: body.action,
      from: body.from,
      to: body.to,
      page: body.page,
      pageSize: body.page_size,
    });
  });

  // The invite page works signed out; a valid token only adds "already a member".
  publicRoute(app, inviteRoutes.get, async (body, ctx) => {
    const token = ctx.request.headers.token;
    const session = typeof token === 'string' && token ? await app.authenticator.resolveSession(token) : null;
    return invites.preview(body.code, session?.userId ?? null);
  });
  authedRoute(app, inviteRoutes.accept, (body, ctx) => invites.accept(ctx, body.code));
}
