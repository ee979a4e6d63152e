import type { AppModule, PlatformDeps } from '../../platform/module.ts';
import { createFieldRepo } from './field.repo.ts';
import { createFieldService } from './field.service.ts';
import { createProfileService } from './profile.service.ts';
import { createProfileValueRepo } from './profile-value.repo.ts';
import { registerUserProfileRoutes } from './user-profile.routes.ts';

/**
 * User profiles of the customer-service scenes (docs/user-profiles.md): a scene's fields, its
 * customers' values and every change to them. The customers are chat history's, read from its
 * tables (the schema is the shared part of a module).
 */
export function createUserProfileModule(deps: PlatformDeps) {
  const { db, now } = deps;
  const fieldRepo = createFieldRepo(db);
  const valueRepo = createProfileValueRepo(db);
  const fields = createFieldService({ db, fields: fieldRepo, now });
  const profiles = createProfileService({ db, fields: fieldRepo, values: valueRepo, now });
  const module: AppModule = {
    name: 'user-profile',
    routes: (app) => registerUserProfileRoutes(app, { fields, profiles }),
  };
  return { module, fields, profiles };
}

export type UserProfileModule = ReturnType<typeof createUserProfileModule>;
