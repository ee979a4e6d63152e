import { randomUUID } from 'node:crypto';
import { type Chunk, KnowledgeFileError, noReadableText } from '@athena/knowledge-core';
import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { InvalidationBus } from '../../platform/cache.ts';
import type { Db } from '../../platform/db/database.ts';
import type { Tx } from '../../platform/db/sql.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { classifyLlmError, detailOf, type LlmGateway } from '../../platform/llm/llm-gateway.ts';
import type { ObjectStorage } from '../../platform/storage.ts';
import type { ModelKeyService } from '../model-key/model-key.service.ts';
import type { FileReaders } from './file-readers.ts';
import type { IndexJob, IndexQueue } from './index-queue.ts';
import type { KnowledgeRepo, UnitRow } from './knowledge.repo.ts';
import { knowledgeBases, knowledgeSegments, knowledgeUnits } from './knowledge.schema.ts';
import { embeddingTextOf } from './segment-text.ts';
import { baseKey, unitKey } from './transitions.ts';
import { chunksOf } from './unit-chunks.ts';
import type { VectorStore } from './vectors.ts';

export type Indexer = ReturnType<typeof createIndexer>;
export type IndexOutcome = 'indexed' | 'failed' | 'stopped' | 'skipped';

/**
 * Segments written per statement while chunking. Each statement also updates the base's term
 * frequencies (a trigger, once per distinct term), so larger statements repeat fewer terms: 2 000
 * indexed the 1 000-page benchmark PDF in 3.9 s, 500 in 4.2–4.5 s.
 */
const INSERT_BATCH = 2000;
/**
 * While a PDF is still being read, segments are written once this many are waiting: fewer, larger
 * statements repeat fewer term updates, and the rest of the file arrives meanwhile.
 */
const STREAM_BATCH = 1000;
/** Progress mark: the file read and its segments written; embedding fills the rest. */
const CHUNKED = 30;

/**
 * What a worker holds while it works: the job's run, and the token its claim drew. Another worker
 * can take over the same run once the lease has run out (a stalled process), and draws a new token.
 */
interface Lease extends IndexJob {
  token: string;
}

/** The unit's run was replaced (cancel, restart, new model, deletion), or taken over, while we worked. */
class StaleRun extends Error {}
/** The embedding endpoint refused or failed; `detail` is safe to show (no key). */
class ModelCallError extends Error {}

/**
 * Indexes one unit per job: claim (a lease in the unit row), parse, chunk, write segments, embed
 * in batches, mark indexed. Every write checks that the unit is still on the job's run and still
 * holds this claim's lease token, so a cancelled or restarted unit is never touched by a worker of
 * an older run, and a worker whose lease ran out and was taken over stops; a crash leaves the
 * lease to expire and the sweeper queues the unit again, which resumes where it stopped (segments
 * are keyed by position, vectors by segment).
 */
export function createIndexer(deps: {
  db: Db;
  repo: KnowledgeRepo;
  vectors: VectorStore;
  queue: IndexQueue;
  storage: ObjectStorage;
  readers: FileReaders;
  gateway: LlmGateway;
  modelKeys: ModelKeyService;
  bus: InvalidationBus;
  log: FastifyBaseLogger;
  leaseSeconds: number;
  embedBatch: number;
}) {
  const { db, vectors, log } = deps;
  const running = new Map<string, { knowledgeId: string; controller: AbortController; done: Promise<unknown> }>();
  let stopping = false;

  deps.bus.subscribe((key) => {
    for (const [unitId, work] of running) {
      if (key === unitKey(unitId) || key === baseKey(work.knowledgeId)) work.controller.abort();
    }
  });

  const current = (job: Lease) =>
    and(
      eq(knowledgeUnits.id, job.unitId),
      eq(knowledgeUnits.runId, job.runId),
      eq(knowledgeUnits.status, 'indexing'),
      eq(knowledgeUnits.leaseToken, job.token),
    );

  /** Inside a transaction: locks the unit row, or throws StaleRun when this lease is no longer current. */
  async function lockRun(tx: Tx, job: Lease) {
    const [row] = await tx.select({ id: knowledgeUnits.id }).from(knowledgeUnits).where(current(job)).for('update');
    if (!row) throw new StaleRun();
  }

  async function setProgress(job: Lease, progress: number) {
    await db
      .update(knowledgeUnits)
      .set({ progress: Math.min(99, Math.round(progress)), updatedAt: sql`now()` })
      .where(current(job));
  }

  async function claim(job: IndexJob) {
    const token = randomUUID();
    const [row] = await db
      .update(knowledgeUnits)
      .set({
        status: 'indexing',
        leaseExpiresAt: sql`now() + make_interval(secs => ${deps.leaseSeconds})`,
        leaseToken: token,
        updatedAt: sql`now()`,
      })
      .where(
        and(
          eq(knowledgeUnits.id, job.unitId),
          eq(knowledgeUnits.runId, job.runId),
          inArray(knowledgeUnits.status, ['waiting', 'indexing']),
          sql`(${knowledgeUnits.leaseExpiresAt} IS NULL OR ${knowledgeUnits.leaseExpiresAt} < now())`,
        ),
      )
      .returning();
    return row ? { unit: row, lease: { ...job, token } } : null;
  }

  /** Parses and cuts the file, writing segments idempotently (a resumed run never duplicates). */
  async function chunk(unit: UnitRow, job: Lease, signal: AbortSignal) {
    const object = await deps.storage.get(unit.storageKey);
    if (!object) throw new KnowledgeFileError('UPLOAD_FAILED', 'the stored file is missing');
    let pending: Chunk[] = [];
    let written = 0;
    let shown = 0;
    // A PDF's pages can arrive one by one: the unit row is updated only when the percentage moves.
    const progress = async (share: number) => {
      const percent = Math.round(CHUNKED * share);
      if (percent <= shown) return;
      shown = percent;
      await setProgress(job, percent);
    };
    for await (const { chunks, read } of chunksOf(deps.readers, unit, object.bytes, signal)) {
      signal.throwIfAborted();
      pending.push(...chunks);
      // While a PDF is still being read, small runs wait for more; whatever is left goes at the end.
      const last = read === 1;
      while (pending.length >= (last ? 1 : STREAM_BATCH)) {
        const batch = pending.slice(0, INSERT_BATCH);
        pending = pending.slice(batch.length);
        await db.transaction(async (tx) => {
          await lockRun(tx, job);
          await deps.repo.insertSegments(tx, unit, written, batch);
        });
        written += batch.length;
        signal.throwIfAborted();
        // The file is all read: progress follows the writing of what is left.
        if (last) await progress(written / (written + pending.length));
      }
      if (!last) await progress(read);
    }
    if (written === 0) throw noReadableText();
    await db.transaction(async (tx) => {
      await lockRun(tx, job);
      await tx
        .delete(knowledgeSegments)
        .where(and(eq(knowledgeSegments.unitId, unit.id), gte(knowledgeSegments.position, written)));
      // A non-zero count marks the segments complete: a resumed run goes straight to embedding.
      await deps.repo.recount(tx, unit.id);
      await tx.update(knowledgeUnits).set({ progress: CHUNKED }).where(eq(knowledgeUnits.id, unit.id));
    });
  }

  async function embedMissing(unit: UnitRow, job: Lease, keyId: string, signal: AbortSignal) {
    const key = await deps.modelKeys.resolveForUse(unit.spaceId, { id: keyId, purpose: 'embedding' });
    if (!key) throw new AppError('NO_EMBEDDING_MODEL');
    const [{ total }] = await db
      .select({ total: sql<number>`count(*)::int` })
      .from(knowledgeSegments)
      .where(eq(knowledgeSegments.unitId, unit.id));
    let done = await vectors.countForUnit(unit.id, keyId);
    for (;;) {
      signal.throwIfAborted();
      const batch = await vectors.missing(unit.id, keyId, deps.embedBatch);
      if (batch.length === 0) return;
      const [live] = await db.select({ id: knowledgeUnits.id }).from(knowledgeUnits).where(current(job));
      if (!live) throw new StaleRun();
      let embeddings: number[][];
      // A signal per call: the client library adds an abort listener to whatever signal it gets and
      // never removes it, so the unit's own signal would collect one per batch.
      const call = new AbortController();
      const forward = () => call.abort(signal.reason);
      signal.addEventListener('abort', forward, { once: true });
      try {
        embeddings = await deps.gateway.embed({
          key,
          input: batch.map((segment) => embeddingTextOf(segment) || ' '),
          signal: call.signal,
          usage: { spaceId: unit.spaceId, userId: unit.createdBy, source: 'knowledge.embed' },
        });
      } catch (error) {
        if (signal.aborted) throw error;
        throw new ModelCallError(`${classifyLlmError(error)}: ${detailOf(error, key)}`);
      } finally {
        signal.removeEventListener('abort', forward);
      }
      if (embeddings.length !== batch.length || embeddings.some((e) => !Array.isArray(e) || e.length === 0)) {
        throw new ModelCallError('bad_response: the endpoint returned the wrong number of embeddings');
      }
      const dims = embeddings[0].length;
      if (embeddings.some((e) => e.length !== dims)) {
        throw new ModelCallError('bad_response: embeddings of different dimensions');
      }
      await vectors.ensureIndex(dims);
      await db.transaction(async (tx) => {
        await lockRun(tx, job);
        await vectors.upsert(
          tx,
          unit.knowledgeId,
          keyId,
          batch.map((segment, index) => ({ segmentId: segment.id, embedding: embeddings[index] })),
        );
      });
      done += batch.length;
      await setProgress(job, CHUNKED + ((100 - CHUNKED) * done) / Math.max(total, 1));
    }
  }

  async function run(unit: UnitRow, job: Lease, signal: AbortSignal) {
    const [base] = await db.select().from(knowledgeBases).where(eq(knowledgeBases.id, unit.knowledgeId));
    if (!base) throw new StaleRun();
    if (unit.segmentCount === 0) await chunk(unit, job, signal);
    else await setProgress(job, CHUNKED);
    if (base.embeddingModelKeyId && (await vectors.available())) {
      await embedMissing(unit, job, base.embeddingModelKeyId, signal);
    }
    await db.transaction(async (tx) => {
      await lockRun(tx, job);
      await deps.repo.recount(tx, unit.id);
      await tx
        .update(knowledgeUnits)
        .set({
          status: 'indexed',
          progress: 100,
          leaseExpiresAt: null,
          leaseToken: null,
          indexedAt: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(eq(knowledgeUnits.id, unit.id));
    });
  }

  async function fail(job: Lease, error: unknown) {
    let code = 'SYSTEM_ERROR';
    let detail: string | null = null;
    if (error instanceof KnowledgeFileError) [code, detail] = [error.code, error.detail];
    else if (error instanceof ModelCallError) [code, detail] = ['MODEL_CALL_FAILED', error.message];
    else if (error instanceof AppError) code = error.key;
    else log.error({ err: error, unitId: job.unitId }, 'knowledge indexing failed');
    await db
      .update(knowledgeUnits)
      .set({
        status: 'failed',
        errorCode: code,
        errorDetail: detail,
        leaseExpiresAt: null,
        leaseToken: null,
        updatedAt: sql`now()`,
      })
      .where(current(job));
  }

  /**
   * Work stopped without finishing: a cancel or a newer run already rewrote the unit, or another
   * worker took it over; otherwise (shutdown, or a message that turned out not to concern this
   * run) it goes back to the queue.
   */
  async function release(unit: UnitRow, job: Lease) {
    const [row] = await db
      .update(knowledgeUnits)
      .set({ status: 'waiting', leaseExpiresAt: null, leaseToken: null, updatedAt: sql`now()` })
      .where(current(job))
      .returning({ id: knowledgeUnits.id });
    if (row) await deps.queue.enqueue(unit.spaceId, [{ unitId: job.unitId, runId: job.runId }]);
  }

  async function process(job: IndexJob): Promise<IndexOutcome> {
    if (stopping) return 'skipped';
    const claimed = await claim(job);
    if (!claimed) return 'skipped';
    const { unit, lease } = claimed;
    const controller = new AbortController();
    let settle = () => {};
    const work = {
      knowledgeId: unit.knowledgeId,
      controller,
      done: new Promise<void>((resolve) => {
        settle = resolve;
      }),
    };
    running.set(unit.id, work);
    const renew = setInterval(
      () => {
        db.update(knowledgeUnits)
          .set({ leaseExpiresAt: sql`now() + make_interval(secs => ${deps.leaseSeconds})` })
          .where(current(lease))
          .returning({ id: knowledgeUnits.id })
          .then((rows) => rows.length === 0 && controller.abort())
          .catch((error) => log.warn({ err: error, unitId: unit.id }, 'could not renew an indexing lease'));
      },
      (deps.leaseSeconds * 1000) / 3,
    );
    try {
      await run(unit, lease, controller.signal);
      return 'indexed';
    } catch (error) {
      if (error instanceof StaleRun || controller.signal.aborted) {
        await release(unit, lease);
        return 'stopped';
      }
      await fail(lease, error);
      return 'failed';
    } finally {
      clearInterval(renew);
      // A worker of this process may have taken the unit over meanwhile: leave its entry alone.
      if (running.get(unit.id) === work) running.delete(unit.id);
      settle();
    }
  }

  return {
    process,

    /**
     * Indexes a waiting unit right here and returns how it ended (benchmarks and tools; the queue
     * is not involved). A unit that is not waiting is left as it is ('skipped').
     */
    async indexNow(unitId: string): Promise<IndexOutcome> {
      const [row] = await db
        .select({ runId: knowledgeUnits.runId, status: knowledgeUnits.status })
        .from(knowledgeUnits)
        .where(eq(knowledgeUnits.id, unitId));
      if (row?.status !== 'waiting') return 'skipped';
      return process({ unitId, runId: row.runId });
    },

    /** Stops taking work, aborts what is in flight and puts it back in the queue. */
    async stop() {
      stopping = true;
      const pending = [...running.values()];
      for (const work of pending) work.controller.abort();
      await Promise.all(pending.map((work) => work.done));
    },

    get busy() {
      return running.size;
    },
  };
}
