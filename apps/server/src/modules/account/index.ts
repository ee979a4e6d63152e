import type { AppModule } from '../../platform/module.ts';
import type { ObjectStorage } from '../../platform/storage.ts';
import type { AuthModule } from '../auth/index.ts';
import type { SpaceModule } from '../space/index.ts';
import { registerAccountRoutes } from './account.routes.ts';
import { createAccountService } from './account.service.ts';
import { registerUserInfoRoute } from './user-info.routes.ts';

/** The signed-in person's own account: profile, phone, WeChat binding, avatar, settings, sessions. */
export function createAccountModule(deps: { auth: AuthModule; space: SpaceModule; storage: ObjectStorage }) {
  const { auth, space, storage } = deps;
  const account = createAccountService({
    accounts: auth.users,
    sessions: auth.sessions,
    smsCodes: auth.smsCodes,
    wechat: auth.wechat,
    spaceRepo: space.spaceRepo,
    storage,
  });
  const module: AppModule = {
    name: 'account',
    routes(app) {
      registerUserInfoRoute(app, { users: auth.users, spaces: space.spaces });
      registerAccountRoutes(app, { account, storage });
    },
  };
  return { module };
}
