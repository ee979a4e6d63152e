import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  ERRORS,
  type ErrorKey,
  formatMessage,
  MEDIA_FILE_MAX_BYTES,
  MEDIA_UPLOAD_METADATA,
  MEDIA_UPLOAD_PATH,
} from '@athena/contract';
import type { FileStore } from '@tus/file-store';
import type { Server, ServerOptions, Upload } from '@tus/server';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import type { MediaRepo } from './media.repo.ts';
import { mediaItems, mediaUploads } from './media.schema.ts';
import { cleanFileName, type MediaFiles } from './media-files.ts';
import type { PreviewCandidate } from './previews.ts';

/** How long an unfinished upload may wait for its next byte before the expiry job removes it. */
export const UPLOAD_TTL_MS = 24 * 3_600_000;

/** What the Fastify route knows about the request that the tus hooks cannot see. */
interface UploadCall {
  ctx: AuthContext;
  checksum: string | null;
}
const calls = new AsyncLocalStorage<UploadCall>();

/** A refusal in tus's shape: the status and our localised envelope as the body. */
function refusal(key: ErrorKey, ctx: AuthContext | undefined, params: Record<string, string | number> = {}) {
  const { code, httpStatus } = ERRORS[key];
  const status = httpStatus >= 400 ? httpStatus : (STATUS_OF[key] ?? 400);
  const body = JSON.stringify({
    code,
    msg: formatMessage(key, ctx?.language ?? 'zh-CN', params),
    request_id: ctx?.request.id,
  });
  return { status_code: status, body };
}
const STATUS_OF: Partial<Record<ErrorKey, number>> = {
  LOGIN_EXPIRED: 401,
  FORBIDDEN: 403,
  SPACE_UNAVAILABLE: 403,
  NOT_FOUND: 404,
  MEDIA_ITEM_NOT_READY: 409,
};
export const toTusError = (error: unknown, ctx?: AuthContext) =>
  error instanceof AppError ? refusal(error.key, ctx, error.params) : error;

const gib = (bytes: number) =>
  bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(2)} GB` : `${(bytes / 1024 ** 2).toFixed(1)} MB`;

/**
 * tus's file store, plus the checksum extension it lacks: with `Upload-Checksum: sha1 <base64>`
 * the chunk is hashed as it streams to disk, and on a mismatch the file is cut back to where the
 * chunk began, so the offset is as before and the client resends (460 Checksum Mismatch).
 *
 * tus (its server and stores, ~15 MB) loads with the first upload or expiry run, not at start-up.
 */
async function defineChecksumFileStore() {
  const { FileStore: TusFileStore } = await import('@tus/file-store');
  class ChecksumFileStore extends TusFileStore {
    constructor(options: ConstructorParameters<typeof FileStore>[0]) {
      super(options);
      this.extensions = [...this.extensions, 'checksum'];
    }
    override async write(readable: Readable, id: string, offset: number): Promise<number> {
      const checksum = calls.getStore()?.checksum;
      if (!checksum) return super.write(readable, id, offset);
      const [algorithm, expected] = checksum.trim().split(/\s+/);
      if (!algorithm || !expected || !CHECKSUM_ALGORITHMS.includes(algorithm)) {
        throw { status_code: 400, body: 'Unsupported checksum algorithm\n' };
      }
      const hash = createHash(algorithm);
      const hashing = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          done(null, chunk);
        },
      });
      let written: number;
      try {
        [written] = await Promise.all([super.write(hashing, id, offset), pipeline(readable, hashing)]);
      } catch {
        // Part of a chunk cannot be checked against the chunk's checksum: none of it is kept.
        await fsp.truncate(path.join(this.directory, id), offset);
        throw { status_code: 500, body: 'Chunk interrupted\n' };
      }
      if (hash.digest('base64') !== expected) {
        await fsp.truncate(path.join(this.directory, id), offset);
        throw { status_code: 460, body: 'Checksum Mismatch\n' };
      }
      return written;
    }
  }
  return ChecksumFileStore;
}

export const CHECKSUM_ALGORITHMS = ['sha1', 'sha256', 'md5'];

export function createTusUploads(deps: {
  db: Db;
  repo: MediaRepo;
  files: MediaFiles;
  quotaBytes: number;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Called once the item is stored and sniffed: queues the making of its preview. */
  afterFinish: (item: PreviewCandidate) => Promise<void>;
}) {
  const { db, repo, files, now } = deps;
  const ctxOrFail = () => {
    const call = calls.getStore();
    if (!call) throw refusal('LOGIN_EXPIRED', undefined);
    return call.ctx;
  };
  const ownUpload = async (ctx: AuthContext, id: string) => {
    const row = /^[0-9a-f]{32}$/.test(id) ? await repo.findUpload(id) : undefined;
    // Another person's upload URL is answered exactly like one that never existed.
    if (!row || row.userId !== ctx.userId || row.spaceId !== ctx.space?.id) throw refusal('NOT_FOUND', ctx);
    return row;
  };
  const checkRoom = (ctx: AuthContext, used: number, size: number) => {
    if (used + size > deps.quotaBytes) {
      throw refusal('MEDIA_QUOTA_EXCEEDED', ctx, { used: gib(used), quota: gib(deps.quotaBytes) });
    }
  };

  // The tus server's options but its store; the server itself is made by serverOf.
  const options: Omit<ServerOptions, 'locker'> = {
    path: MEDIA_UPLOAD_PATH.replace(/\/$/, ''),
    relativeLocation: true,
    // Same origin only, like every other API route: no CORS headers for other sites.
    allowedOrigins: () => false,
    // The store's name is random; the person's file name only ever lands in a database column.
    namingFunction: () => randomBytes(16).toString('hex'),
    async onIncomingRequest(req, id) {
      const ctx = ctxOrFail();
      if (req.method === 'POST') return;
      const row = await ownUpload(ctx, id);
      // Every chunk, not only the first: another server's upload may have finished meanwhile.
      if (req.method === 'PATCH') checkRoom(ctx, row.othersBytes, row.size);
    },
    async onUploadCreate(_req, upload: Upload) {
      const ctx = ctxOrFail();
      try {
        const space = authorize(ctx, 'media.create');
        const libraryId = upload.metadata?.[MEDIA_UPLOAD_METADATA.library] ?? '';
        const name = upload.metadata?.[MEDIA_UPLOAD_METADATA.name] ?? '';
        if (upload.size === undefined || !libraryId || !name) throw new AppError('MEDIA_UPLOAD_INVALID');
        if (upload.size > MEDIA_FILE_MAX_BYTES) throw new AppError('MEDIA_FILE_TOO_LARGE');
        if (upload.size === 0) throw new AppError('MEDIA_EMPTY_FILE');
        const library = await repo.findLibrary(space.id, libraryId);
        checkRoom(ctx, await repo.usedBytes(space.id), upload.size);
        await db.insert(mediaUploads).values({
          id: upload.id,
          spaceId: space.id,
          libraryId: library.id,
          userId: ctx.userId,
          name: cleanFileName(name),
          size: upload.size,
          expiresAt: new Date(now().getTime() + UPLOAD_TTL_MS),
        });
        return {};
      } catch (error) {
        throw toTusError(error, ctx);
      }
    },
    async onUploadFinish(_req, upload: Upload) {
      const ctx = ctxOrFail();
      const row = await ownUpload(ctx, upload.id);
      const storageKey = await files.adopt(upload.id, row.spaceId);
      // Visible as processing from here on; never as ready before the content was looked at.
      const [item] = await db
        .insert(mediaItems)
        .values({
          spaceId: row.spaceId,
          libraryId: row.libraryId,
          name: row.name,
          size: row.size,
          mimeType: 'application/octet-stream',
          kind: 'other',
          status: 'processing',
          storageKey,
          createdBy: row.userId,
        })
        .returning();
      await repo.deleteUpload(row.id);
      if (!item) throw new Error('media: item insert returned nothing');
      let finished: PreviewCandidate = { id: item.id, kind: 'other', status: 'failed' };
      try {
        const { mime, kind } = await files.sniff(storageKey);
        const claimed = claimedKind(row.name);
        const reason = claimed && claimed !== kind ? `content is ${mime}, not the ${claimed} its name suggests` : null;
        await db
          .update(mediaItems)
          .set({ mimeType: mime, kind, status: 'ready', statusReason: reason, updatedAt: now() })
          .where(eq(mediaItems.id, item.id));
        finished = { id: item.id, kind, status: 'ready' };
      } catch (error) {
        // The bytes are complete and stay downloadable as what they are: unknown.
        deps.log.warn({ err: error, itemId: item.id }, 'media: sniffing failed');
        await db
          .update(mediaItems)
          .set({ status: 'failed', statusReason: 'the content could not be read', updatedAt: now() })
          .where(eq(mediaItems.id, item.id));
      }
      void hashLater(item.id, storageKey);
      await deps.afterFinish(finished).catch((error: unknown) => {
        // The sweep queues it later: the item row says its preview is still pending.
        deps.log.warn({ err: error, itemId: item.id }, 'media: queueing the preview failed');
      });
      return { headers: { 'Media-Item-Id': item.id } };
    },
    onResponseError: (_req, error) => {
      if (!('status_code' in error)) deps.log.error({ err: error }, 'media upload failed');
      return undefined;
    },
  };

  /**
   * The tus server, made with the first upload or expiry run: on S3 its store loads the AWS SDK,
   * which a server that has not been sent a file yet does without (media-files-s3.ts).
   */
  let serving: Promise<Server> | undefined;
  const serverOf = () => (serving ??= makeServer());
  async function makeServer() {
    // On S3 the parts go to the bucket as they arrive (docs/media.md, "On S3").
    const datastore =
      files.uploads.kind === 's3'
        ? await files.uploads.datastore(UPLOAD_TTL_MS, () => calls.getStore()?.checksum ?? null)
        : new (await defineChecksumFileStore())({
            directory: files.uploads.directory,
            expirationPeriodInMilliseconds: UPLOAD_TTL_MS,
          });
    const { EVENTS, Server: TusServer } = await import('@tus/server');
    const server = new TusServer({ ...options, datastore });
    // The part is linked into place at the finish; tus still reads it until the answer is out.
    server.on(EVENTS.POST_FINISH, (_req, _res, upload) => {
      void files.removeUpload(upload.id).catch((error: unknown) => deps.log.warn({ err: error }, 'media: cleanup'));
    });
    server.on(EVENTS.POST_TERMINATE, (_req, _res, id) => {
      void repo.deleteUpload(id).catch((error: unknown) => deps.log.warn({ err: error }, 'media: cleanup'));
    });
    return server;
  }

  const pending = new Set<Promise<void>>();
  /** The sha256 is for integrity checks and deduplication later; it must not hold up the answer. */
  function hashLater(itemId: string, key: string) {
    const work = (async () => {
      const hash = createHash('sha256');
      for await (const chunk of files.read(key)) hash.update(chunk as Buffer);
      await db
        .update(mediaItems)
        .set({ sha256: hash.digest('hex') })
        .where(eq(mediaItems.id, itemId));
    })()
      .catch((error: unknown) => deps.log.warn({ err: error, itemId }, 'media: hashing failed'))
      .finally(() => pending.delete(work));
    pending.add(work);
    return work;
  }

  return {
    /** Answers a tus request (inside `handle`, but for OPTIONS). */
    serve: async (req: IncomingMessage, res: ServerResponse) => (await serverOf()).handle(req, res),
    /** Runs one tus request as `ctx`. */
    handle: (call: UploadCall, run: () => Promise<void>) => calls.run(call, run),
    /** Waits for background hashing (tests, shutdown). */
    settle: async () => {
      await Promise.all([...pending]);
    },
    /** Removes uploads whose time ran out, their parts on disk included. */
    async removeExpired() {
      let removed = 0;
      for (;;) {
        const expired = await repo.expiredUploads(now());
        if (expired.length === 0) break;
        for (const { id } of expired) {
          await files.removeUpload(id);
          await repo.deleteUpload(id);
          removed += 1;
        }
      }
      // Parts without a row (a crash between the finish and the cleanup) expire by tus's own clock.
      await serverOf()
        .then((server) => server.cleanUpExpiredUploads())
        .catch((error: unknown) => deps.log.warn({ err: error }, 'media: expiry'));
      return removed;
    },
  };
}

export type TusUploads = ReturnType<typeof createTusUploads>;

const CLAIMS: Record<string, 'video' | 'audio' | 'image' | 'document'> = {
  mp4: 'video',
  mov: 'video',
  mkv: 'video',
  webm: 'video',
  avi: 'video',
  mp3: 'audio',
  wav: 'audio',
  m4a: 'audio',
  flac: 'audio',
  ogg: 'audio',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  gif: 'image',
  webp: 'image',
  pdf: 'document',
  docx: 'document',
};
/** What the name's extension claims, only to flag a mismatch; the sniffed type always wins. */
const claimedKind = (name: string) => CLAIMS[name.slice(name.lastIndexOf('.') + 1).toLowerCase()];
