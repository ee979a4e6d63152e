import type { Config } from '../../config.ts';
import type { AppModule, PlatformDeps } from '../../platform/module.ts';
import type { ObjectStorage } from '../../platform/storage.ts';
import type { OpenMediaDocument } from '../media/index.ts';
import type { ModelKeyModule } from '../model-key/index.ts';
import { createFileReaders } from './file-readers.ts';
import { createKnowledgeGroupService } from './group.service.ts';
import { createIndexQueue } from './index-queue.ts';
import { createIndexer } from './indexer.ts';
import { createIndexerWorker } from './indexer-worker.ts';
import { createKnowledgeRepo } from './knowledge.repo.ts';
import { registerKnowledgeRoutes } from './knowledge.routes.ts';
import { createKnowledgeBaseService } from './knowledge-base.service.ts';
import { createKnowledgeQueries } from './queries.ts';
import { dropVectorsWhenModelKeyRemoved } from './reactions/drop-vectors-when-model-key-removed.ts';
import { createRetrievalService } from './retrieval.service.ts';
import { createSegmentService } from './segment.service.ts';
import { createUnitService } from './unit.service.ts';
import { createUnitFromMedia } from './unit-from-media.command.ts';
import { createVectorStore } from './vectors.ts';

/**
 * Knowledge bases: groups, bases, files (units), segments, retrieval, and the indexer that turns
 * uploaded files into searchable segments (a queue worker the job runner starts).
 */
export type { KnowledgeQueries } from './queries.ts';

export function createKnowledgeModule(
  deps: PlatformDeps & {
    config: Config;
    storage: ObjectStorage;
    modelKey: ModelKeyModule;
    /** The media module's documents, for "add to a knowledge base". */
    openMediaDocument: OpenMediaDocument;
  },
) {
  const { db, bus, log, config, storage } = deps;
  const { gateway, modelKeys } = deps.modelKey;
  const vectors = createVectorStore(db, { efSearch: config.KNOWLEDGE_EF_SEARCH });
  // Vectors made with a deleted embedding key cannot be searched again; they go with it.
  dropVectorsWhenModelKeyRemoved(deps.events, vectors);
  const repo = createKnowledgeRepo({ db, vectors });
  const queue = createIndexQueue({ db });
  const groups = createKnowledgeGroupService({ db });
  // Every read of a file's content runs in worker threads under these limits (docs/knowledge.md).
  const readers = createFileReaders({
    workers: config.FILE_PARSE_WORKERS,
    heapMb: config.FILE_PARSE_HEAP_MB,
    timeoutMs: config.FILE_PARSE_TIMEOUT_MS,
  });
  const common = { db, repo, vectors, bus, log, storage, queue, readers };
  const bases = createKnowledgeBaseService({ ...common, groups, modelKeys: deps.modelKey.queries });
  const units = createUnitService(common);
  const fromMedia = createUnitFromMedia({ units, openMediaDocument: deps.openMediaDocument });
  const segments = createSegmentService({ db, repo, vectors, gateway, modelKeys });
  const retrieval = createRetrievalService({ db, repo, vectors, gateway, modelKeys, log });
  const indexer = createIndexer({
    ...common,
    gateway,
    modelKeys,
    leaseSeconds: config.KNOWLEDGE_LEASE_SECONDS,
    embedBatch: config.KNOWLEDGE_EMBED_BATCH,
  });
  const indexerWorker = createIndexerWorker({
    db,
    queue,
    indexer,
    concurrency: config.KNOWLEDGE_INDEX_CONCURRENCY,
    leaseSeconds: config.KNOWLEDGE_LEASE_SECONDS,
    log,
  });
  const module: AppModule = {
    name: 'knowledge',
    routes: (app) => {
      registerKnowledgeRoutes(app, { groups, bases, units, fromMedia, segments, retrieval });
      app.addHook('onClose', () => readers.close());
    },
    workers: [indexerWorker],
  };
  /** What other modules may read of knowledge bases. */
  const queries = createKnowledgeQueries(db);
  return { module, retrieval, queue, indexer, indexerWorker, readers, queries };
}

export type KnowledgeModule = ReturnType<typeof createKnowledgeModule>;
