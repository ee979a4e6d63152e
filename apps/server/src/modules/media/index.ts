import type { AppModule, PlatformDeps } from '../../platform/module.ts';
import { createItemService } from './item.service.ts';
import { createLibraryService } from './library.service.ts';
import { createMediaRepo } from './media.repo.ts';
import { registerMediaRoutes } from './media.routes.ts';
import { createMediaFiles } from './media-files.ts';
import { createTusUploads } from './tus-upload.ts';
import { registerUploadRoutes } from './upload.routes.ts';

/** Media libraries (docs/media.md): groups, libraries, items uploaded over tus, signed delivery. */
export function createMediaModule(deps: PlatformDeps & { dataDir: string; masterKey: Buffer; quotaBytes: number }) {
  const { db, now } = deps;
  const repo = createMediaRepo(db);
  const files = createMediaFiles(deps.dataDir);
  const libraries = createLibraryService({ db, repo, files, now });
  const items = createItemService({ db, repo, files, masterKey: deps.masterKey, quotaBytes: deps.quotaBytes, now });
  const tus = createTusUploads({ db, repo, files, quotaBytes: deps.quotaBytes, now, log: deps.log });
  const module: AppModule = {
    name: 'media',
    routes: (app) => {
      registerMediaRoutes(app, { libraries, items });
      registerUploadRoutes(app, { tus, items, files });
      app.addHook('onClose', async () => {
        await tus.settle();
        await files.close();
      });
    },
    schedules: [
      {
        name: 'media-upload-expiry',
        cron: '*/10 * * * *',
        run: async () => {
          await tus.removeExpired();
        },
      },
    ],
  };
  return { module, tus, files };
}

export type MediaModule = ReturnType<typeof createMediaModule>;
