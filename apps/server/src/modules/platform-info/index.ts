import type { AppModule } from '../../platform/module.ts';
import { type PlatformFacts, registerPlatformInfoRoutes } from './platform-info.routes.ts';

/** What this deployment is: version, providers, timings and scenes the web client adapts to. */
export function createPlatformInfoModule(facts: PlatformFacts) {
  const module: AppModule = { name: 'platform-info', routes: (app) => registerPlatformInfoRoutes(app, facts) };
  return { module };
}
