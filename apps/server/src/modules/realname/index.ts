import type { AppModule, PlatformDeps } from '../../platform/module.ts';
import type { RealNameProvider } from '../../platform/realname/realname-provider.ts';
import { createRealNameRepo } from './realname.repo.ts';
import { registerRealNameRoutes } from './realname.routes.ts';
import { createRealNameService } from './realname.service.ts';

/** Real-name verification of a person through the configured face-check provider. */
export function createRealNameModule(
  deps: PlatformDeps & { provider: RealNameProvider; masterKey: Buffer; publicUrl: string },
) {
  const { db, bus, now, log, provider } = deps;
  const realName = createRealNameService({
    repo: createRealNameRepo(db),
    provider,
    masterKey: deps.masterKey,
    publicUrl: deps.publicUrl,
    bus,
    now,
    log,
  });
  const module: AppModule = {
    name: 'realname',
    routes: (app) => registerRealNameRoutes(app, { realName, devProvider: provider.name === 'dev' }),
  };
  return { module, realNameProvider: provider };
}
