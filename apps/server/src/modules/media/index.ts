import type { AppModule, PlatformDeps } from '../../platform/module.ts';
import type { S3Location } from '../../platform/storage-s3.ts';
import { createDeliveryCache } from './delivery-cache.ts';
import { createItemService } from './item.service.ts';
import { createLibraryService } from './library.service.ts';
import { createMediaRepo } from './media.repo.ts';
import { registerMediaRoutes } from './media.routes.ts';
import { createMediaDocuments } from './media-documents.ts';
import { createMediaFiles } from './media-files.ts';
import { createS3MediaFiles } from './media-files-s3.ts';
import { createMediaTools, type ToolSet } from './media-tools.ts';
import { registerPreviewRoutes } from './preview.routes.ts';
import { createPreviews } from './previews.ts';
import { createTusUploads } from './tus-upload.ts';
import { registerUploadRoutes } from './upload.routes.ts';

/** Media libraries (docs/media.md): groups, libraries, items uploaded over tus, signed delivery. */
export function createMediaModule(
  deps: PlatformDeps & {
    dataDir: string;
    masterKey: Buffer;
    quotaBytes: number;
    s3?: S3Location;
    /** ffmpeg and ffprobe (findTools: the configured native binaries, else the WebAssembly build). */
    tools: ToolSet;
  },
) {
  const { db, now } = deps;
  const repo = createMediaRepo(db);
  // STORAGE_URL set: the bucket holds uploads and files (docs/media.md, "On S3").
  const files = deps.s3 ? createS3MediaFiles(deps.s3, { now }) : createMediaFiles(deps.dataDir);
  const delivery = createDeliveryCache(deps.bus);
  const libraries = createLibraryService({ db, repo, files, delivery, now });
  const previews = createPreviews({
    db,
    repo,
    files,
    tools: createMediaTools(deps.tools, (launch) =>
      deps.log.warn(
        { tool: launch.prefix.at(-1), runsAs: launch.name, missing: launch.missing },
        'media tools run without part of their floor',
      ),
    ),
    log: deps.log,
  });
  const items = createItemService({
    db,
    repo,
    files,
    masterKey: deps.masterKey,
    quotaBytes: deps.quotaBytes,
    now,
    queuePreview: previews.queue,
    delivery,
  });
  const tus = createTusUploads({
    db,
    repo,
    files,
    quotaBytes: deps.quotaBytes,
    now,
    log: deps.log,
    afterFinish: previews.queue,
  });
  const module: AppModule = {
    name: 'media',
    routes: (app) => {
      registerMediaRoutes(app, { libraries, items });
      registerUploadRoutes(app, { tus, items, files });
      registerPreviewRoutes(app, { items, files });
      app.addHook('onClose', async () => {
        await tus.settle();
        await files.close();
      });
    },
    workers: [previews.worker],
    schedules: [
      {
        name: 'media-trash-purge',
        cron: '17 3 * * *',
        run: async () => {
          await items.purgeOldTrash();
        },
      },
      {
        name: 'media-preview-sweep',
        cron: '*/5 * * * *',
        run: () => previews.sweep(),
      },
      {
        name: 'media-upload-expiry',
        cron: '*/10 * * * *',
        run: async () => {
          await tus.removeExpired();
        },
      },
    ],
  };
  return { module, tus, files, previews, items, openDocument: createMediaDocuments({ repo, files }) };
}

export type MediaModule = ReturnType<typeof createMediaModule>;
export type { MediaDocument, OpenMediaDocument } from './media-documents.ts';
export { findTools } from './media-tools.ts';
