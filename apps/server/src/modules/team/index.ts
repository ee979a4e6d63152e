import type { AppModule, PlatformDeps } from '../../platform/module.ts';
import type { Ledger } from '../billing/index.ts';
import type { SpaceModule } from '../space/index.ts';
import type { AuditRepo } from './audit.repo.ts';
import { teamDissolved } from './events.ts';
import { createInviteService } from './invite.service.ts';
import { createMemberRepo } from './member.repo.ts';
import { createMemberService } from './member.service.ts';
import { registerTeamRoutes } from './team.routes.ts';
import { createTeamService } from './team.service.ts';

/** Teams: creating, renaming, dissolving and transferring them; members, roles, invites, audit log. */
/** The team's audit log, for modules that record their own changes in it. */
export { type AuditEvent, type AuditRepo, createAuditRepo } from './audit.repo.ts';
/** The schema of `team.dissolved`, for modules that end what a team held open. */
export { teamDissolved } from './events.ts';

export function createTeamModule(
  deps: PlatformDeps & { space: SpaceModule; ledger: Ledger; publicUrl: string; audit: AuditRepo },
) {
  const { db, bus, now, audit } = deps;
  const common = { db, bus, spaces: deps.space.spaceRepo, members: createMemberRepo(db), audit };
  const teams = createTeamService({
    ...common,
    ledger: deps.ledger,
    now,
    dissolved: deps.events.channel('team.dissolved', teamDissolved),
  });
  const members = createMemberService(common);
  const invites = createInviteService({ ...common, publicUrl: deps.publicUrl, now });
  const module: AppModule = {
    name: 'team',
    routes: (app) => registerTeamRoutes(app, { teams, members, invites, audit }),
  };
  return { module };
}
