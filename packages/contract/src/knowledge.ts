import { z } from 'zod';
import { defineRoute } from './envelope.ts';

const tag = 'knowledge';
const id = z.string().min(1).max(64);

/** Spec §5: PDF, TXT, DOCX or Excel/CSV; up to 10 files of 20 MB each. */
export const KNOWLEDGE_FILE_KINDS = ['pdf', 'txt', 'docx', 'xlsx', 'csv'] as const;
export type KnowledgeFileKind = (typeof KNOWLEDGE_FILE_KINDS)[number];
export const KNOWLEDGE_MAX_FILES = 10;
export const KNOWLEDGE_MAX_FILE_BYTES = 20 * 1024 * 1024;
/** The binary upload: POST raw bytes here with `?knowledge_id=…&file_name=…` (URI-encoded). */
export const KNOWLEDGE_UPLOAD_PATH = '/api/athena/v1/knowledge/unit/upload';

/** `graph` is a later issue; it extends a normal base (same units and segments) with entities. */
export const KNOWLEDGE_TYPES = ['normal', 'graph'] as const;

/**
 * Spec §4, in the order a unit moves: not indexed (uploaded, chunking not chosen yet) → waiting
 * for indexing → indexing → indexed | indexing failed | indexing canceled.
 */
export const UNIT_STATUSES = ['not_indexed', 'waiting', 'indexing', 'indexed', 'failed', 'canceled'] as const;
export type UnitStatus = (typeof UNIT_STATUSES)[number];

export const RETRIEVERS = ['fulltext', 'vector'] as const;
export type Retriever = (typeof RETRIEVERS)[number];
export const RETRIEVAL_MODES = ['fulltext', 'vector', 'hybrid'] as const;
export const SCORE_KINDS = ['fusion', 'fulltext', 'vector'] as const;
export type ScoreKind = (typeof SCORE_KINDS)[number];

export const retrievalSettingsSchema = z.object({
  /** `vector` and `hybrid` need an embedding model; without one the base searches full text. */
  mode: z.enum(RETRIEVAL_MODES).default('hybrid'),
  top_k: z.number().int().min(1).max(20).default(5),
  /** Results below this score are dropped; null keeps all top-k. Scores are 0–1. */
  score_threshold: z.number().min(0).max(1).nullable().default(null),
});
export type RetrievalSettings = z.infer<typeof retrievalSettingsSchema>;
const DEFAULT_RETRIEVAL: RetrievalSettings = { mode: 'hybrid', top_k: 5, score_threshold: null };

/** How a document is cut into segments. `auto`: ~500 characters, 50 overlap, headings and sentences kept. */
export const chunkingSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('auto') }),
  z
    .object({
      mode: z.literal('custom'),
      /** Target size in characters. */
      size: z.number().int().min(100).max(4000),
      overlap: z.number().int().min(0).max(1000),
      /** Extra split points tried before sentences, e.g. "\n\n" or "###". Escapes like \n are literal. */
      separators: z.array(z.string().min(1).max(20)).max(10).default([]),
    })
    .refine((value) => value.overlap < value.size / 2, { error: 'overlap must be less than half the size' }),
]);
export type Chunking = z.infer<typeof chunkingSchema>;

/** Spreadsheets: `qa` turns each row into one segment with question and answer; `row` keeps the row as text. */
export const tableModeSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('row') }),
  z.object({
    mode: z.literal('qa'),
    /** 0-based column indexes of the detected header (or first row). */
    question_column: z.number().int().min(0).max(200),
    answer_column: z.number().int().min(0).max(200),
  }),
]);
export type TableMode = z.infer<typeof tableModeSchema>;

export const knowledgeGroupSchema = z.object({
  id: z.string(),
  name: z.string(),
  knowledge_count: z.number().int(),
  /** Members may rename and delete only the groups they made (like their bases). */
  created_by: z.object({ id: z.string() }),
  created_at: z.string(),
});

export type KnowledgeGroup = z.infer<typeof knowledgeGroupSchema>;

export const knowledgeNameField = z
  .string({ error: 'KNOWLEDGE_NAME_REQUIRED' })
  .trim()
  .min(1, { error: 'KNOWLEDGE_NAME_REQUIRED' })
  .max(50, { error: 'KNOWLEDGE_NAME_TOO_LONG' });

const statusCounts = z.object(
  Object.fromEntries(UNIT_STATUSES.map((s) => [s, z.number().int()])) as {
    [K in UnitStatus]: z.ZodNumber;
  },
);

export const knowledgeBaseSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  type: z.enum(KNOWLEDGE_TYPES),
  group_id: z.string().nullable(),
  /** A model key with purpose `embedding`; null: full-text search only. */
  embedding_model_key_id: z.string().nullable(),
  /** "model name · version" of that key, for display; null when none or deleted. */
  embedding_model_label: z.string().nullable(),
  retrieval: retrievalSettingsSchema,
  unit_count: z.number().int(),
  segment_count: z.number().int(),
  status_counts: statusCounts,
  created_by: z.object({ id: z.string(), nickname: z.string() }),
  created_at: z.string(),
  updated_at: z.string(),
});
export type KnowledgeBase = z.infer<typeof knowledgeBaseSchema>;

export const knowledgeUnitSchema = z.object({
  id: z.string(),
  knowledge_id: z.string(),
  file_name: z.string(),
  file_kind: z.enum(KNOWLEDGE_FILE_KINDS),
  size: z.number().int(),
  content_hash: z.string(),
  status: z.enum(UNIT_STATUSES),
  /** 0–100 while indexing. */
  progress: z.number().int(),
  /** Why indexing failed: a catalogue key (e.g. MODEL_CALL_FAILED) and the localised text. */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  chunking: chunkingSchema,
  table_mode: tableModeSchema.nullable(),
  segment_count: z.number().int(),
  token_count: z.number().int(),
  /** Spreadsheets only: the detected header, for choosing Q&A columns. */
  columns: z.array(z.string()).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  indexed_at: z.string().nullable(),
});
export type KnowledgeUnit = z.infer<typeof knowledgeUnitSchema>;

export const segmentSchema = z.object({
  id: z.string(),
  knowledge_id: z.string(),
  unit_id: z.string(),
  file_name: z.string(),
  position: z.number().int(),
  /** Q&A segments have question and answer; others only content. */
  question: z.string(),
  answer: z.string(),
  content: z.string(),
  enabled: z.boolean(),
  tokens: z.number().int(),
  hit_count: z.number().int(),
  /** Has a vector for the base's current embedding model. */
  embedded: z.boolean(),
  /** Written by hand rather than cut from the file. */
  manual: z.boolean(),
  updated_at: z.string(),
});
export type Segment = z.infer<typeof segmentSchema>;

const segmentFields = {
  question: z.string().trim().max(2_000).default(''),
  answer: z.string().trim().max(10_000).default(''),
  content: z.string().trim().max(10_000).default(''),
};

export const searchHitSchema = z.object({
  segment: segmentSchema,
  /** Fused score, 0–1, higher is better. */
  score: z.number(),
  /** Which retrievers found it, with its rank (1-based) and raw score in each. */
  found_by: z.array(z.object({ retriever: z.enum(RETRIEVERS), rank: z.number().int(), score: z.number() })),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

/** A source an agent's answer cites; `marker` is the [n] in the answer text. */
export const citationSchema = z.object({
  marker: z.number().int(),
  knowledge_id: z.string(),
  unit_id: z.string(),
  segment_id: z.string(),
  file_name: z.string(),
  snippet: z.string(),
  score: z.number(),
});
export type Citation = z.infer<typeof citationSchema>;

export const chunkPreviewSchema = z.object({
  total: z.number().int(),
  chunks: z.array(
    z.object({
      position: z.number().int(),
      question: z.string(),
      answer: z.string(),
      content: z.string(),
      tokens: z.number().int(),
    }),
  ),
  columns: z.array(z.string()).nullable(),
});

const page = { page: z.number().int().min(1).default(1), page_size: z.number().int().min(1).max(100).default(20) };

export const knowledgeRoutes = {
  groupList: defineRoute({
    path: '/api/athena/v1/knowledge/group/list',
    body: z.object({}).nullish(),
    data: z.object({ items: z.array(knowledgeGroupSchema) }),
    auth: true,
    summary: 'Knowledge groups of the current space',
    tag,
  }),
  groupCreate: defineRoute({
    path: '/api/athena/v1/knowledge/group/create',
    body: z.object({
      name: z
        .string({ error: 'GROUP_NAME_REQUIRED' })
        .trim()
        .min(1, { error: 'GROUP_NAME_REQUIRED' })
        .max(50, { error: 'KNOWLEDGE_NAME_TOO_LONG' }),
    }),
    data: knowledgeGroupSchema,
    auth: true,
    summary: 'Create a group',
    tag,
  }),
  groupRename: defineRoute({
    path: '/api/athena/v1/knowledge/group/rename',
    body: z.object({
      id,
      name: z
        .string({ error: 'GROUP_NAME_REQUIRED' })
        .trim()
        .min(1, { error: 'GROUP_NAME_REQUIRED' })
        .max(50, { error: 'KNOWLEDGE_NAME_TOO_LONG' }),
    }),
    data: knowledgeGroupSchema,
    auth: true,
    summary: 'Rename a group',
    tag,
  }),
  groupDelete: defineRoute({
    path: '/api/athena/v1/knowledge/group/delete',
    body: z.object({ id }),
    data: z.null(),
    auth: true,
    summary: 'Delete a group; its knowledge bases become ungrouped (nothing else is deleted)',
    tag,
  }),
  list: defineRoute({
    path: '/api/athena/v1/knowledge/list',
    body: z
      .object({
        /** A group id, `ungrouped`, or absent for all. */
        group_id: z.string().max(64).optional(),
        keyword: z.string().trim().max(50).optional(),
      })
      .nullish(),
    data: z.object({ items: z.array(knowledgeBaseSchema) }),
    auth: true,
    summary: 'Knowledge bases of the current space',
    tag,
  }),
  get: defineRoute({
    path: '/api/athena/v1/knowledge/get',
    body: z.object({ id }),
    data: knowledgeBaseSchema,
    auth: true,
    summary: 'One knowledge base',
    tag,
  }),
  create: defineRoute({
    path: '/api/athena/v1/knowledge/create',
    body: z.object({
      name: knowledgeNameField,
      description: z.string().trim().max(500).default(''),
      type: z.enum(KNOWLEDGE_TYPES).default('normal'),
      group_id: z.string().max(64).nullable().default(null),
      /** undefined: the space's default embedding key (if any); null: full text only. */
      embedding_model_key_id: z.string().max(64).nullable().optional(),
      retrieval: retrievalSettingsSchema.default(DEFAULT_RETRIEVAL),
    }),
    data: knowledgeBaseSchema,
    auth: true,
    summary: 'Create a knowledge base',
    tag,
  }),
  update: defineRoute({
    path: '/api/athena/v1/knowledge/update',
    body: z.object({
      id,
      name: knowledgeNameField,
      description: z.string().trim().max(500).default(''),
      group_id: z.string().max(64).nullable().default(null),
      /** Changing it re-embeds every indexed unit (they go back to waiting). */
      embedding_model_key_id: z.string().max(64).nullable(),
      retrieval: retrievalSettingsSchema,
    }),
    data: knowledgeBaseSchema,
    auth: true,
    summary: 'Change a knowledge base',
    tag,
  }),
  delete: defineRoute({
    path: '/api/athena/v1/knowledge/delete',
    body: z.object({ id }),
    data: z.null(),
    auth: true,
    summary: 'Delete a knowledge base with its files, segments and vectors',
    tag,
  }),
  reindex: defineRoute({
    path: '/api/athena/v1/knowledge/reindex',
    body: z.object({ id }),
    data: z.object({ queued: z.number().int() }),
    auth: true,
    summary: 'Index every unit of a base again (e.g. after changing its embedding model)',
    tag,
  }),
  unitList: defineRoute({
    path: '/api/athena/v1/knowledge/unit/list',
    body: z.object({
      knowledge_id: id,
      status: z.enum(UNIT_STATUSES).optional(),
      keyword: z.string().trim().max(100).optional(),
    }),
    data: z.object({ items: z.array(knowledgeUnitSchema) }),
    auth: true,
    summary: 'Units (files) of a knowledge base, newest first, with live status',
    tag,
  }),
  unitGet: defineRoute({
    path: '/api/athena/v1/knowledge/unit/get',
    body: z.object({ id }),
    data: knowledgeUnitSchema,
    auth: true,
    summary: 'One unit',
    tag,
  }),
  unitPreview: defineRoute({
    path: '/api/athena/v1/knowledge/unit/preview',
    body: z.object({
      id,
      chunking: chunkingSchema,
      table_mode: tableModeSchema.nullable().default(null),
      limit: z.number().int().min(1).max(50).default(10),
    }),
    data: chunkPreviewSchema,
    auth: true,
    summary: 'The first chunks a unit would be cut into with these settings (nothing is written)',
    tag,
  }),
  unitStart: defineRoute({
    path: '/api/athena/v1/knowledge/unit/start',
    body: z.object({
      ids: z.array(id).min(1).max(50),
      chunking: chunkingSchema,
      /** For spreadsheets; ignored for other files. */
      table_mode: tableModeSchema.nullable().default(null),
    }),
    data: z.object({ items: z.array(knowledgeUnitSchema) }),
    auth: true,
    summary: 'Queue units for indexing with these chunking settings',
    tag,
  }),
  unitCancel: defineRoute({
    path: '/api/athena/v1/knowledge/unit/cancel',
    body: z.object({ id }),
    data: knowledgeUnitSchema,
    auth: true,
    summary: 'Stop indexing a waiting or indexing unit',
    tag,
  }),
  unitRetry: defineRoute({
    path: '/api/athena/v1/knowledge/unit/retry',
    body: z.object({ id }),
    data: knowledgeUnitSchema,
    auth: true,
    summary: 'Queue a failed or canceled unit again',
    tag,
  }),
  unitDelete: defineRoute({
    path: '/api/athena/v1/knowledge/unit/delete',
    body: z.object({ id }),
    data: z.null(),
    auth: true,
    summary: 'Delete a unit with its segments and vectors',
    tag,
  }),
  segmentList: defineRoute({
    path: '/api/athena/v1/knowledge/segment/list',
    body: z.object({
      knowledge_id: id,
      unit_id: id.optional(),
      keyword: z.string().trim().max(100).optional(),
      ...page,
    }),
    data: z.object({ items: z.array(segmentSchema), total: z.number().int() }),
    auth: true,
    summary: 'Segments of a base or of one unit, in file order',
    tag,
  }),
  segmentCreate: defineRoute({
    path: '/api/athena/v1/knowledge/segment/create',
    body: z.object({ unit_id: id, ...segmentFields }),
    data: segmentSchema,
    auth: true,
    summary: 'Add a segment by hand to a unit (indexed at once)',
    tag,
  }),
  segmentUpdate: defineRoute({
    path: '/api/athena/v1/knowledge/segment/update',
    body: z.object({ id, ...segmentFields }),
    data: segmentSchema,
    auth: true,
    summary: 'Edit a segment; only it is indexed again',
    tag,
  }),
  segmentSetEnabled: defineRoute({
    path: '/api/athena/v1/knowledge/segment/set_enabled',
    body: z.object({ id, enabled: z.boolean() }),
    data: segmentSchema,
    auth: true,
    summary: 'Disable a segment (kept, never retrieved) or enable it again',
    tag,
  }),
  segmentDelete: defineRoute({
    path: '/api/athena/v1/knowledge/segment/delete',
    body: z.object({ id }),
    data: z.null(),
    auth: true,
    summary: 'Delete a segment and its vector',
    tag,
  }),
  search: defineRoute({
    path: '/api/athena/v1/knowledge/search',
    body: z.object({
      knowledge_id: id,
      query: z.string({ error: 'QUERY_REQUIRED' }).trim().min(1, { error: 'QUERY_REQUIRED' }).max(1_000),
      /** Absent: the base's own retrieval settings. */
      retrieval: retrievalSettingsSchema.optional(),
    }),
    data: z.object({
      items: z.array(searchHitSchema),
      /** The mode actually used (hybrid falls back to fulltext without an embedding model). */
      mode: z.enum(RETRIEVAL_MODES),
      /**
       * What `score` is: `fusion` (reciprocal rank, from ranks, not a similarity) when both
       * retrievers found something; otherwise the one retriever's own score.
       */
      score_kind: z.enum(SCORE_KINDS),
      took_ms: z.number(),
    }),
    auth: true,
    summary: 'Retrieval test ("hit test"): ranked segments with scores and retrievers',
    tag,
  }),
} as const;
