import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';
import { users } from '../auth/auth.schema.ts';
import { modelKeys } from '../model-key/model-key.schema.ts';
import { spaces } from '../space/space.schema.ts';

// Tables of the knowledge module. Other modules may join them in queries (docs/code-style.md).

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const knowledgeGroups = pgTable(
  'knowledge_groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [index('knowledge_groups_space_idx').on(t.spaceId, t.createdAt)],
);

/**
 * A knowledge base. `type` normal|graph: a graph base (later) keeps these units and segments and
 * adds entity/relation tables that point at segments, so nothing here changes for it.
 */
export const knowledgeBases = pgTable(
  'knowledge_bases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id').references(() => knowledgeGroups.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    type: text('type').notNull().default('normal'),
    /** An `embedding` model key; null: full-text retrieval only. */
    embeddingModelKeyId: uuid('embedding_model_key_id').references(() => modelKeys.id, { onDelete: 'set null' }),
    retrieval: jsonb('retrieval')
      .$type<{ mode: 'fulltext' | 'vector' | 'hybrid'; top_k: number; score_threshold: number | null }>()
      .notNull(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('knowledge_bases_space_idx').on(t.spaceId, t.createdAt)],
);

/** A file in a knowledge base (spec: unit), with where its indexing stands. */
export const knowledgeUnits = pgTable(
  'knowledge_units',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id').notNull(),
    knowledgeId: uuid('knowledge_id')
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    /** pdf | txt | docx | xlsx | csv, from the content, not the name. */
    fileKind: text('file_kind').notNull(),
    size: integer('size').notNull(),
    /** SHA-256 of the bytes; the same file twice in one base is refused. */
    contentHash: text('content_hash').notNull(),
    storageKey: text('storage_key').notNull(),
    /** not_indexed | waiting | indexing | indexed | failed | canceled (requirements.md, States) */
    status: text('status').notNull().default('not_indexed'),
    progress: integer('progress').notNull().default(0),
    errorCode: text('error_code'),
    errorDetail: text('error_detail'),
    chunking: jsonb('chunking').$type<Record<string, unknown>>().notNull(),
    tableMode: jsonb('table_mode').$type<Record<string, unknown> | null>(),
    /** Spreadsheets: the detected header row. */
    columns: jsonb('columns').$type<string[] | null>(),
    segmentCount: integer('segment_count').notNull().default(0),
    tokenCount: integer('token_count').notNull().default(0),
    /** Bumped on every start/retry/cancel, so a stale worker's writes are recognised and dropped. */
    runId: integer('run_id').notNull().default(0),
    /** A worker holds the unit until then and renews it; an expired lease is picked up again. */
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),
    /**
     * Drawn anew by every claim: a worker's writes check it with the run id, so one whose lease
     * ran out and was taken over by another worker (same run) stops instead of writing alongside.
     */
    leaseToken: uuid('lease_token'),
    /** The upload page's batch (requirements.md, Validation: up to 10 files); null for a file sent alone. */
    uploadBatch: uuid('upload_batch'),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    indexedAt: timestamp('indexed_at', { withTimezone: true }),
  },
  (t) => [
    index('knowledge_units_base_idx').on(t.knowledgeId, t.createdAt),
    uniqueIndex('knowledge_units_hash_key').on(t.knowledgeId, t.contentHash),
    index('knowledge_units_status_idx').on(t.status, t.leaseExpiresAt),
    index('knowledge_units_batch_idx').on(t.uploadBatch),
  ],
);

/**
 * A segment (requirements.md, Entities: question, answer, content). Full text lives here as
 * jieba-segmented words (`search_question` weighted A so Q&A rows match on their question,
 * `search_body` B); vectors live in `knowledge_vectors` (raw SQL, only where pgvector exists).
 */
export const knowledgeSegments = pgTable(
  'knowledge_segments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id').notNull(),
    knowledgeId: uuid('knowledge_id')
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: 'cascade' }),
    unitId: uuid('unit_id')
      .notNull()
      .references(() => knowledgeUnits.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    question: text('question').notNull().default(''),
    answer: text('answer').notNull().default(''),
    content: text('content').notNull().default(''),
    searchQuestion: text('search_question').notNull().default(''),
    searchBody: text('search_body').notNull().default(''),
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`setweight(to_tsvector('simple', search_question), 'A') || setweight(to_tsvector('simple', search_body), 'B')`,
    ),
    enabled: boolean('enabled').notNull().default(true),
    manual: boolean('manual').notNull().default(false),
    tokens: integer('tokens').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('knowledge_segments_position_key').on(t.unitId, t.position),
    index('knowledge_segments_base_idx').on(t.knowledgeId, t.unitId, t.position),
    index('knowledge_segments_search_idx').using('gin', t.searchVector),
  ],
);

/**
 * How often retrieval returned a segment. Kept apart from `knowledge_segments` because every search
 * bumps it: an update of the wide segment row writes a new row version and new entries into its GIN
 * index (into the pending list, which every full-text search then reads), here only a narrow row.
 */
export const knowledgeSegmentHits = pgTable('knowledge_segment_hits', {
  segmentId: uuid('segment_id')
    .primaryKey()
    .references(() => knowledgeSegments.id, { onDelete: 'cascade' }),
  hits: integer('hits').notNull().default(0),
});

/**
 * Document frequency: in how many segments of a base each full-text term occurs, the empty term
 * counting the base's segments. Kept by triggers on `knowledge_segments` (migration 0009), so
 * every way segments are written, edited or deleted updates it; retrieval reads it instead of
 * counting at query time (docs/knowledge.md, "Full text").
 */
export const knowledgeTerms = pgTable(
  'knowledge_terms',
  {
    knowledgeId: uuid('knowledge_id')
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: 'cascade' }),
    term: text('term').notNull(),
    segments: integer('segments').notNull(),
  },
  (t) => [primaryKey({ columns: [t.knowledgeId, t.term] })],
);
