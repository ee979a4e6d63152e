import type { MediaKind } from '@athena/contract';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { Db } from '../../platform/db/database.ts';
import type { QueueWorker } from '../../platform/module.ts';
import type { MediaRepo } from './media.repo.ts';
import { mediaItems } from './media.schema.ts';
import type { MediaFiles } from './media-files.ts';
import type { MediaTools } from './media-tools.ts';
import { makePreview, type Preview } from './preview-maker.ts';

export const PREVIEW_QUEUE = 'media-preview';
/** Kinds a preview is made for; the rest get an icon (`unsupported`). */
const PREVIEWABLE_KINDS = new Set(['image', 'video', 'audio']);
/** What deciding on a preview needs of an item: the caller has just written it, so it is not read again. */
export interface PreviewCandidate {
  id: string;
  kind: string;
  status: string;
}
const previewable = (row: Omit<PreviewCandidate, 'id'>) => row.status !== 'failed' && PREVIEWABLE_KINDS.has(row.kind);
/** Jobs fetched at once. */
const BATCH = 8;
/** How many items without a preview one sweep queues at most. */
const SWEEP_BATCH = 500;

/**
 * The previews of uploaded items, made in pg-boss jobs after the upload (docs/media.md,
 * "Previews"). The item row is the durable state: `preview = 'pending'` until a job made it. A job
 * lost to a crash, or an upload finished while no worker ran, is queued again by the sweep (at
 * start and every few minutes); the queue's 'short' policy keeps one waiting job per item.
 */
export function createPreviews(deps: {
  db: Db;
  repo: MediaRepo;
  files: MediaFiles;
  tools: MediaTools;
  log: FastifyBaseLogger;
}) {
  const { db, repo, files, tools, log } = deps;
  let boss: PgBoss | null = null;

  let work: string | null = null;
  // pg-boss waits its polling interval after every fetch unless its worker is woken: jobs sent
  // here, and a full batch (more are likely waiting), wake it at once.
  const wake = () => {
    if (boss && work) boss.notifyWorker(work);
  };
  const send = async (itemIds: string[]) => {
    if (!boss || itemIds.length === 0) return;
    await boss.insert(itemIds.map((itemId) => ({ name: PREVIEW_QUEUE, data: { itemId }, singletonKey: itemId })));
    wake();
  };

  /** Makes one item's preview, if it still waits for one. Safe to run twice, or after a purge. */
  async function process(itemId: string) {
    const row = await repo.itemById(itemId);
    if (row?.preview !== 'pending') return;
    const made: Preview = !previewable(row)
      ? { preview: 'none', reason: row.status === 'failed' ? 'unreadable' : 'unsupported' }
      : await files.withLocalFile(row.storageKey, (file) =>
          makePreview(tools, file, row.kind as MediaKind, row.mimeType),
        );
    const thumbKey = made.preview === 'ready' && made.thumb ? files.newKey(row.spaceId) : null;
    if (thumbKey && made.preview === 'ready' && made.thumb) await files.put(thumbKey, made.thumb);
    const [saved] = await db
      .update(mediaItems)
      .set({
        preview: made.preview,
        previewReason: made.preview === 'none' ? made.reason : null,
        thumbKey,
        durationMs: made.durationMs ?? null,
        width: made.width ?? null,
        height: made.height ?? null,
      })
      .where(and(eq(mediaItems.id, row.id), eq(mediaItems.preview, 'pending')))
      .returning({ id: mediaItems.id });
    // Purged meanwhile, or another process got there first: this thumbnail belongs to no one.
    if (!saved && thumbKey) await files.remove(thumbKey);
    // The thumbnail of before a "make it again" goes once the new one is in place.
    if (saved && row.thumbKey && row.thumbKey !== thumbKey) await files.remove(row.thumbKey);
  }

  async function sweep() {
    const waiting = await db
      .select({ id: mediaItems.id })
      .from(mediaItems)
      .where(eq(mediaItems.preview, 'pending'))
      .orderBy(asc(mediaItems.createdAt))
      .limit(SWEEP_BATCH);
    await send(waiting.map((row) => row.id));
  }

  const worker: QueueWorker = {
    name: PREVIEW_QUEUE,
    async start(instance) {
      await instance.createQueue(PREVIEW_QUEUE, {
        name: PREVIEW_QUEUE,
        policy: 'short',
        retryLimit: 2,
        retryDelay: 30,
        expireInSeconds: 15 * 60,
      });
      // A few jobs per fetch, made one after the other.
      work = await instance.work<{ itemId: string }>(
        PREVIEW_QUEUE,
        { batchSize: BATCH, pollingIntervalSeconds: 2 },
        async (jobs) => {
          for (const job of jobs) {
            await process(job.data.itemId).catch((error: unknown) => {
              log.warn({ err: error, itemId: job.data.itemId }, 'media: preview failed');
            });
          }
          if (jobs.length === BATCH) wake();
        },
      );
      boss = instance;
      await sweep().catch((error: unknown) => log.warn({ err: error }, 'media: preview sweep failed'));
    },
    async stop() {
      const target = boss;
      boss = null;
      if (target && work) await target.offWork({ id: work });
      work = null;
    },
  };

  return {
    worker,
    process,
    sweep,
    /**
     * After an upload: queue the item's preview (nothing to do until the worker runs). An item
     * that gets none (a document, a failed one) is settled at once, without a job.
     */
    async queue(item: PreviewCandidate) {
      if (previewable(item)) await send([item.id]);
      else await process(item.id);
    },
  };
}

export type Previews = ReturnType<typeof createPreviews>;
