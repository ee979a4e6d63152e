import { z } from 'zod';
import type { Language } from './errors.ts';
import { text } from './text.ts';

/** requirements.md, Validation: PDF, TXT, DOCX or Excel/CSV; up to 10 files of 20 MB each. */
export const KNOWLEDGE_FILE_KINDS = ['pdf', 'txt', 'docx', 'xlsx', 'csv'] as const;
export type KnowledgeFileKind = (typeof KNOWLEDGE_FILE_KINDS)[number];
export const KNOWLEDGE_MAX_FILES = 10;
export const KNOWLEDGE_MAX_FILE_BYTES = 20 * 1024 * 1024;
/** The binary upload: POST raw bytes here with `?knowledge_id=…&file_name=…` (URI-encoded). */
export const KNOWLEDGE_UPLOAD_PATH = '/api/athena/v1/knowledge/unit/upload';

/** `graph` is a later issue; it extends a normal base (same units and segments) with entities. */
export const KNOWLEDGE_TYPES = ['normal', 'graph'] as const;

/**
 * The indexing states (requirements.md, States), in the order a unit moves: not indexed (uploaded,
 * chunking not chosen yet) → waiting for indexing → indexing → indexed | indexing failed | indexing
 * canceled.
 */
export const UNIT_STATUSES = ['not_indexed', 'waiting', 'indexing', 'indexed', 'failed', 'canceled'] as const;
export type UnitStatus = (typeof UNIT_STATUSES)[number];

/** A unit's status in words, for messages the server writes (the web has its own locale keys). */
export const UNIT_STATUS_LABELS: Record<UnitStatus, Record<Language, string>> = {
  not_indexed: { 'zh-CN': '未索引', 'zh-TW': '未索引', en: 'not indexed' },
  waiting: { 'zh-CN': '等待索引', 'zh-TW': '等待索引', en: 'waiting for indexing' },
  indexing: { 'zh-CN': '索引中', 'zh-TW': '索引中', en: 'indexing' },
  indexed: { 'zh-CN': '已索引', 'zh-TW': '已索引', en: 'indexed' },
  failed: { 'zh-CN': '索引失败', 'zh-TW': '索引失敗', en: 'indexing failed' },
  canceled: { 'zh-CN': '已取消索引', 'zh-TW': '已取消索引', en: 'indexing canceled' },
};

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
export const DEFAULT_RETRIEVAL: RetrievalSettings = { mode: 'hybrid', top_k: 5, score_threshold: null };

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
      separators: z.array(text().min(1).max(20)).max(10).default([]),
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
  id: text(),
  name: text(),
  knowledge_count: z.number().int(),
  /** Members may rename and delete only the groups they made (like their bases). */
  created_by: z.object({ id: text() }),
  created_at: text(),
});

export type KnowledgeGroup = z.infer<typeof knowledgeGroupSchema>;

export const knowledgeNameField = text({ error: 'KNOWLEDGE_NAME_REQUIRED' })
  .trim()
  .min(1, { error: 'KNOWLEDGE_NAME_REQUIRED' })
  .max(50, { error: 'KNOWLEDGE_NAME_TOO_LONG' });

const statusCounts = z.object(
  Object.fromEntries(UNIT_STATUSES.map((s) => [s, z.number().int()])) as {
    [K in UnitStatus]: z.ZodNumber;
  },
);

export const knowledgeBaseSchema = z.object({
  id: text(),
  name: text(),
  description: text(),
  type: z.enum(KNOWLEDGE_TYPES),
  group_id: text().nullable(),
  /** A model key with purpose `embedding`; null: full-text search only. */
  embedding_model_key_id: text().nullable(),
  /** "model name · version" of that key, for display; null when none or deleted. */
  embedding_model_label: text().nullable(),
  retrieval: retrievalSettingsSchema,
  unit_count: z.number().int(),
  segment_count: z.number().int(),
  status_counts: statusCounts,
  created_by: z.object({ id: text(), nickname: text() }),
  created_at: text(),
  updated_at: text(),
});
export type KnowledgeBase = z.infer<typeof knowledgeBaseSchema>;

export const knowledgeUnitSchema = z.object({
  id: text(),
  knowledge_id: text(),
  file_name: text(),
  file_kind: z.enum(KNOWLEDGE_FILE_KINDS),
  size: z.number().int(),
  content_hash: text(),
  status: z.enum(UNIT_STATUSES),
  /** 0–100 while indexing. */
  progress: z.number().int(),
  /** Why indexing failed: a catalogue key (e.g. MODEL_CALL_FAILED) and the localised text. */
  error: z.object({ code: text(), message: text() }).nullable(),
  chunking: chunkingSchema,
  table_mode: tableModeSchema.nullable(),
  segment_count: z.number().int(),
  token_count: z.number().int(),
  /** Spreadsheets only: the detected header, for choosing Q&A columns. */
  columns: z.array(text()).nullable(),
  created_at: text(),
  updated_at: text(),
  indexed_at: text().nullable(),
});
export type KnowledgeUnit = z.infer<typeof knowledgeUnitSchema>;

export const segmentSchema = z.object({
  id: text(),
  knowledge_id: text(),
  unit_id: text(),
  file_name: text(),
  position: z.number().int(),
  /** Q&A segments have question and answer; others only content. */
  question: text(),
  answer: text(),
  content: text(),
  enabled: z.boolean(),
  tokens: z.number().int(),
  hit_count: z.number().int(),
  /** Has a vector for the base's current embedding model. */
  embedded: z.boolean(),
  /** Written by hand rather than cut from the file. */
  manual: z.boolean(),
  updated_at: text(),
});
export type Segment = z.infer<typeof segmentSchema>;

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
  knowledge_id: text(),
  unit_id: text(),
  segment_id: text(),
  file_name: text(),
  snippet: text(),
  score: z.number(),
});
export type Citation = z.infer<typeof citationSchema>;

export const chunkPreviewSchema = z.object({
  total: z.number().int(),
  chunks: z.array(
    z.object({
      position: z.number().int(),
      question: text(),
      answer: text(),
      content: text(),
      tokens: z.number().int(),
    }),
  ),
  columns: z.array(text()).nullable(),
});
