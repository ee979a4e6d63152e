import type { AppModule, PlatformDeps } from '../../platform/module.ts';
import type { ObjectStorage } from '../../platform/storage.ts';
import { createAttachmentService } from './attachments.ts';
import { createCustomBusinessRepo } from './custom-business.repo.ts';
import { registerCustomBusinessRoutes } from './custom-business.routes.ts';
import { createCustomBusinessService } from './custom-business.service.ts';

/** Custom AI business requests: a team asks, operators quote and close; attachments on storage. */
export function createCustomBusinessModule(
  deps: PlatformDeps & { storage: ObjectStorage; operatorPhones: ReadonlySet<string> },
) {
  const { db, now } = deps;
  const repo = createCustomBusinessRepo(db);
  const customBusiness = createCustomBusinessService({ db, repo, operatorPhones: deps.operatorPhones, now });
  const attachments = createAttachmentService({
    repo,
    storage: deps.storage,
    isOperator: customBusiness.isOperator,
    now,
  });
  const module: AppModule = {
    name: 'custom-business',
    routes: (app) => registerCustomBusinessRoutes(app, { customBusiness, attachments }),
  };
  return { module };
}
