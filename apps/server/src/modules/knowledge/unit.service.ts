import { randomBytes } from 'node:crypto';
import {
  type Chunking,
  KNOWLEDGE_MAX_FILE_BYTES,
  KNOWLEDGE_MAX_FILES,
  type KnowledgeFileKind,
  type TableMode,
  type UnitStatus,
} from '@athena/contract';
import { type ChunkingOptions, type FileKind, KnowledgeFileError } from '@athena/knowledge-core';
import { and, desc, eq, ilike, inArray, notInArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import type { InvalidationBus } from '../../platform/cache.ts';
import type { Db } from '../../platform/db/database.ts';
import { escapeLike } from '../../platform/db/like.ts';
import type { Tx } from '../../platform/db/sql.ts';
import { AppError } from '../../platform/http/app-error.ts';
import type { ObjectStorage } from '../../platform/storage.ts';
import type { FileReaders } from './file-readers.ts';
import type { IndexQueue } from './index-queue.ts';
import { stateConflict, toUnit } from './knowledge.presenters.ts';
import type { KnowledgeRepo, UnitRow } from './knowledge.repo.ts';
import { knowledgeSegments, knowledgeUnits } from './knowledge.schema.ts';
import { authorizeEdit } from './knowledge-access.ts';
import { announce, beginRun, unitKey } from './transitions.ts';

export type UnitService = ReturnType<typeof createUnitService>;

const CONTENT_TYPES: Record<KnowledgeFileKind, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  txt: 'text/plain',
  csv: 'text/csv',
};
const TABLE_KINDS: KnowledgeFileKind[] = ['xlsx', 'csv'];
const AUTO: Chunking = { mode: 'auto' };
const FILE_NAME_MAX = 200;

/** A file name as the person sees it: no path, no control or direction characters, bounded. */
export function cleanFileName(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 4096) return null;
  let name = value.slice(Math.max(value.lastIndexOf('/'), value.lastIndexOf('\\')) + 1);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  name = name.replace(/[\u0000-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  if (!name || name === '.' || name === '..') return null;
  const chars = [...name];
  if (chars.length <= FILE_NAME_MAX) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : '';
  return chars.slice(0, FILE_NAME_MAX - ext.length).join('') + ext;
}

/**
 * The engine's refusals as catalogue errors. Anything else (the pool closed, a thread that could
 * not start or broke) is the server's fault, not the file's: it goes on to the error handler as a
 * system error, as the indexer records it. The reason goes to the log: the catalogue's message
 * for a refused file is general, and an operator asked about one wants to know which limit it met.
 */
async function orRefuse<T>(log: FastifyBaseLogger, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof KnowledgeFileError)) throw error;
    log.info({ code: error.code, detail: error.detail }, 'knowledge file refused');
    throw new AppError(error.code, { detail: error.detail });
  }
}

/** Q&A columns must name two different columns of the detected header. */
function checkTableMode(unit: UnitRow, tableMode: TableMode | null): TableMode | null {
  if (!TABLE_KINDS.includes(unit.fileKind as KnowledgeFileKind)) return null;
  const mode = tableMode ?? { mode: 'row' };
  if (mode.mode === 'qa') {
    const columns = unit.columns?.length ?? 0;
    const { question_column: q, answer_column: a } = mode;
    if (q === a || q >= columns || a >= columns) throw new AppError('TABLE_COLUMNS_INVALID');
  }
  return mode;
}

/**
 * Files (units) of a knowledge base and their indexing lifecycle (docs/knowledge.md):
 * not_indexed → waiting → indexing → indexed | failed | canceled. Reading takes membership;
 * anything that changes a base's files takes `knowledge.edit` on the base.
 */
/**
 * Units being cut show the segments written so far. The stored count stays 0 until the file is all
 * cut (a non-zero count is what tells a resumed run the segments are complete), but a large PDF's
 * segments are written as its pages arrive, and its row should not read 0 for minutes.
 */
async function segmentsSoFar(db: Db, rows: UnitRow[]): Promise<UnitRow[]> {
  const cutting = rows.filter((row) => row.status === 'indexing' && row.segmentCount === 0).map((row) => row.id);
  if (cutting.length === 0) return rows;
  const counted = await db
    .select({ unitId: knowledgeSegments.unitId, n: sql<number>`count(*)::int` })
    .from(knowledgeSegments)
    .where(inArray(knowledgeSegments.unitId, cutting))
    .groupBy(knowledgeSegments.unitId);
  const written = new Map(counted.map((row) => [row.unitId, row.n]));
  return rows.map((row) => (written.has(row.id) ? { ...row, segmentCount: written.get(row.id) ?? 0 } : row));
}

export function createUnitService(deps: {
  db: Db;
  repo: KnowledgeRepo;
  queue: IndexQueue;
  storage: ObjectStorage;
  bus: InvalidationBus;
  log: FastifyBaseLogger;
  readers: FileReaders;
}) {
  const { db, repo, queue, bus, readers } = deps;
  const withSegmentsSoFar = (rows: UnitRow[]) => segmentsSoFar(db, rows);

  async function unitForChange(ctx: AuthContext, id: string) {
    const space = authorize(ctx, 'member.view');
    const row = await repo.findUnit(space.id, id);
    authorizeEdit(ctx, row.base);
    return row;
  }

  async function reload(id: string, ctx: AuthContext) {
    const [row] = await db.select().from(knowledgeUnits).where(eq(knowledgeUnits.id, id));
    if (!row) throw new AppError('NOT_FOUND');
    return toUnit(row, ctx.language);
  }

  /** Starts new runs in one transaction and sends their jobs once it has committed. */
  async function startRuns(spaceId: string, work: (tx: Tx) => Promise<Awaited<ReturnType<typeof beginRun>>>) {
    const jobs = await db.transaction(work);
    await queue.enqueue(spaceId, jobs);
    return jobs;
  }

  /** Checked before the body is read too, so a caller who may not upload never makes us buffer it. */
  async function checkUploadTarget(ctx: AuthContext, knowledgeId: unknown) {
    const space = authorize(ctx, 'member.view');
    const base = await repo.findBase(space.id, typeof knowledgeId === 'string' ? knowledgeId : '');
    authorizeEdit(ctx, base);
    return base;
  }

  async function refuseFullBatch(runner: Tx, knowledgeId: string, batchId: string) {
    const [{ n }] = await runner
      .select({ n: sql<number>`count(*)::int` })
      .from(knowledgeUnits)
      .where(and(eq(knowledgeUnits.uploadBatch, batchId), eq(knowledgeUnits.knowledgeId, knowledgeId)));
    if (n >= KNOWLEDGE_MAX_FILES) throw new AppError('TOO_MANY_FILES');
  }

  return {
    checkUploadTarget,

    /**
     * `batchId`: the upload page's batch, which holds at most KNOWLEDGE_MAX_FILES files
     * (requirements.md, Validation); the count and the insert run under a lock on the batch, so
     * parallel uploads cannot pass it.
     */
    async upload(ctx: AuthContext, knowledgeId: string, rawName: unknown, bytes: Buffer, batchId?: string) {
      const base = await checkUploadTarget(ctx, knowledgeId);
      const fileName = cleanFileName(rawName);
      if (!fileName) throw new AppError('UPLOAD_FAILED', { detail: 'file_name is missing' });
      if (bytes.length > KNOWLEDGE_MAX_FILE_BYTES) throw new AppError('FILE_SIZE_EXCEEDED');
      if (bytes.length === 0) throw new AppError('FILE_EMPTY');
      // Early, before reading and storing; checked again under the batch's lock at the insert.
      if (batchId) await refuseFullBatch(db, base.id, batchId);
      // The kind by content, and a read now (in a worker thread) so an empty, broken or hostile
      // file is refused at upload, not at indexing; the hash comes from the thread too.
      const { kind, columns, sha256: contentHash } = await orRefuse(deps.log, () => readers.inspect(bytes, fileName));
      const duplicate = async () => {
        const [same] = await db
          .select({ fileName: knowledgeUnits.fileName })
          .from(knowledgeUnits)
          .where(and(eq(knowledgeUnits.knowledgeId, base.id), eq(knowledgeUnits.contentHash, contentHash)))
          .limit(1);
        return same ? new AppError('DUPLICATE_FILE', { name: same.fileName }) : null;
      };
      const known = await duplicate();
      if (known) throw known;

      const key = `knowledge/${base.spaceId}/${randomBytes(24).toString('hex')}.${kind}`;
      await deps.storage.put(key, bytes, CONTENT_TYPES[kind]);
      try {
        const row = await db.transaction(async (tx) => {
          if (batchId) {
            await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${batchId}, 0))`);
            await refuseFullBatch(tx, base.id, batchId);
          }
          const [inserted] = await tx
            .insert(knowledgeUnits)
            .values({
              spaceId: base.spaceId,
              knowledgeId: base.id,
              fileName,
              fileKind: kind,
              size: bytes.length,
              contentHash,
              storageKey: key,
              chunking: AUTO,
              tableMode: columns ? { mode: 'row' } : null,
              columns,
              createdBy: ctx.userId,
              uploadBatch: batchId ?? null,
            })
            .returning();
          return inserted;
        });
        return toUnit(row, ctx.language);
      } catch (error) {
        await deps.storage.remove(key);
        // Two uploads of one file at once: the unique index lets one through.
        throw (await duplicate()) ?? error;
      }
    },

    async list(ctx: AuthContext, query: { knowledge_id: string; status?: UnitStatus; keyword?: string }) {
      const space = authorize(ctx, 'member.view');
      const base = await repo.findBase(space.id, query.knowledge_id);
      const conditions: SQL[] = [eq(knowledgeUnits.knowledgeId, base.id)];
      if (query.status) conditions.push(eq(knowledgeUnits.status, query.status));
      if (query.keyword) conditions.push(ilike(knowledgeUnits.fileName, `%${escapeLike(query.keyword)}%`));
      const rows = await db
        .select()
        .from(knowledgeUnits)
        .where(and(...conditions))
        .orderBy(desc(knowledgeUnits.createdAt), desc(knowledgeUnits.id));
      return { items: (await withSegmentsSoFar(rows)).map((row) => toUnit(row, ctx.language)) };
    },

    async get(ctx: AuthContext, id: string) {
      const space = authorize(ctx, 'member.view');
      const [row] = await withSegmentsSoFar([(await repo.findUnit(space.id, id)).unit]);
      return toUnit(row, ctx.language);
    },

    /** The first chunks the unit would be cut into; nothing is written. */
    async preview(
      ctx: AuthContext,
      body: { id: string; chunking: Chunking; table_mode: TableMode | null; limit: number },
    ) {
      const space = authorize(ctx, 'member.view');
      const { unit } = await repo.findUnit(space.id, body.id);
      const tableMode = checkTableMode(unit, body.table_mode);
      const object = await deps.storage.get(unit.storageKey);
      if (!object) throw new AppError('UPLOAD_FAILED', { detail: 'the stored file is missing' });
      const preview = await orRefuse(deps.log, () =>
        readers.preview(object.bytes, unit.fileKind as FileKind, {
          chunking: body.chunking as ChunkingOptions,
          tableMode: tableMode ?? { mode: 'row' },
          limit: body.limit,
        }),
      );
      return {
        total: preview.total,
        chunks: preview.chunks.map((chunk, position) => ({ position, ...chunk })),
        columns: preview.columns,
      };
    },

    /** Queues units with these settings; their old segments (if any) are replaced. All or nothing. */
    async start(ctx: AuthContext, body: { ids: string[]; chunking: Chunking; table_mode: TableMode | null }) {
      const space = authorize(ctx, 'member.view');
      const ids = [...new Set(body.ids)];
      const rows = [];
      for (const id of ids) rows.push(await unitForChange(ctx, id));
      // Spreadsheets get this table mode, other files none; it is the same for every spreadsheet.
      let tableMode: TableMode | null = null;
      for (const { unit } of rows) {
        if (unit.status === 'waiting' || unit.status === 'indexing') throw stateConflict(unit.status, ctx.language);
        tableMode = checkTableMode(unit, body.table_mode) ?? tableMode;
      }
      await startRuns(space.id, async (tx) => {
        // Guarded again here: a unit started by someone else since we read it fails the whole call.
        const started = await beginRun(
          tx,
          and(inArray(knowledgeUnits.id, ids), notInArray(knowledgeUnits.status, ['waiting', 'indexing']))!,
          {
            chunking: body.chunking,
            tableMode: sql`CASE WHEN ${knowledgeUnits.fileKind} IN ${TABLE_KINDS} THEN ${JSON.stringify(tableMode)}::jsonb END`,
            segmentCount: 0,
            tokenCount: 0,
            indexedAt: null,
          },
        );
        if (started.length < ids.length) {
          const done = new Set(started.map((job) => job.unitId));
          const [busy] = await tx
            .select({ status: knowledgeUnits.status })
            .from(knowledgeUnits)
            .where(
              inArray(
                knowledgeUnits.id,
                ids.filter((id) => !done.has(id)),
              ),
            )
            .limit(1);
          // Thrown inside the transaction, so the units already switched are switched back.
          throw busy ? stateConflict(busy.status, ctx.language) : new AppError('NOT_FOUND');
        }
        // A new chunking replaces every segment (and, by cascade, vector) of these units.
        await tx.delete(knowledgeSegments).where(inArray(knowledgeSegments.unitId, ids));
        return started;
      });
      return { items: await Promise.all(ids.map((id) => reload(id, ctx))) };
    },

    async cancel(ctx: AuthContext, id: string) {
      const { unit } = await unitForChange(ctx, id);
      const [row] = await db
        .update(knowledgeUnits)
        .set({
          status: 'canceled',
          runId: unit.runId + 1,
          leaseExpiresAt: null,
          leaseToken: null,
          updatedAt: sql`now()`,
        })
        .where(
          and(
            eq(knowledgeUnits.id, unit.id),
            eq(knowledgeUnits.runId, unit.runId),
            inArray(knowledgeUnits.status, ['waiting', 'indexing']),
          ),
        )
        .returning();
      if (!row) throw stateConflict((await reload(unit.id, ctx)).status, ctx.language);
      // The worker holding it (in whichever process) aborts its model call at once.
      await announce(bus, [unitKey(unit.id)]);
      return toUnit(row, ctx.language);
    },

    /** A failed or canceled unit again, with its settings; finished work is kept and resumed. */
    async retry(ctx: AuthContext, id: string) {
      const { unit, base } = await unitForChange(ctx, id);
      const where = and(
        eq(knowledgeUnits.id, unit.id),
        eq(knowledgeUnits.runId, unit.runId),
        inArray(knowledgeUnits.status, ['failed', 'canceled']),
      );
      const jobs = await startRuns(base.spaceId, (tx) => beginRun(tx, where!));
      if (jobs.length === 0) throw stateConflict((await reload(unit.id, ctx)).status, ctx.language);
      return reload(unit.id, ctx);
    },

    async remove(ctx: AuthContext, id: string) {
      const { unit } = await unitForChange(ctx, id);
      // Segments and vectors go with it (foreign keys cascade).
      await db.delete(knowledgeUnits).where(eq(knowledgeUnits.id, unit.id));
      await announce(bus, [unitKey(unit.id)]);
      await deps.storage
        .remove(unit.storageKey)
        .catch((error) => deps.log.error({ err: error, key: unit.storageKey }, 'could not remove a file'));
    },
  };
}
