import type { AppModule, PlatformDeps } from '../../platform/module.ts';
import type { UserRepo } from '../auth/user.repo.ts';
import { createSpaceRepo } from './space.repo.ts';
import { registerSpaceRoutes } from './space.routes.ts';
import { createSpaceService } from './space.service.ts';

/** Spaces (a person's own, and teams) and who belongs to them; the auth guard asks it for roles. */
export function createSpaceModule(deps: PlatformDeps & { users: UserRepo }) {
  const spaceRepo = createSpaceRepo(deps.db, deps.bus);
  const spaces = createSpaceService({ spaces: spaceRepo, accounts: deps.users });
  const module: AppModule = { name: 'space', routes: (app) => registerSpaceRoutes(app, spaces) };
  return { module, spaceRepo, spaces };
}

export type SpaceModule = ReturnType<typeof createSpaceModule>;
