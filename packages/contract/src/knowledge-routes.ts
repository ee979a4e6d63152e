import { z } from 'zod';
import { defineRoute, defineUpload, noParams } from './envelope.ts';
import {
  chunkingSchema,
  chunkPreviewSchema,
  DEFAULT_RETRIEVAL,
  KNOWLEDGE_MAX_FILE_BYTES,
  KNOWLEDGE_TYPES,
  KNOWLEDGE_UPLOAD_PATH,
  knowledgeBaseSchema,
  knowledgeGroupSchema,
  knowledgeNameField,
  knowledgeUnitSchema,
  RETRIEVAL_MODES,
  retrievalSettingsSchema,
  SCORE_KINDS,
  searchHitSchema,
  segmentSchema,
  tableModeSchema,
  UNIT_STATUSES,
} from './knowledge.ts';
import { text } from './text.ts';

// The knowledge-base calls; the shapes they carry are in knowledge.ts.
const tag = 'knowledge';
const id = text().min(1).max(64);

const segmentFields = {
  question: text().trim().max(2_000).default(''),
  answer: text().trim().max(10_000).default(''),
  content: text().trim().max(10_000).default(''),
};

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
      name: text({ error: 'GROUP_NAME_REQUIRED' })
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
      name: text({ error: 'GROUP_NAME_REQUIRED' })
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
        group_id: text().max(64).optional(),
        keyword: text().trim().max(50).optional(),
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
      description: text().trim().max(500).default(''),
      type: z.enum(KNOWLEDGE_TYPES).default('normal'),
      group_id: text().max(64).nullable().default(null),
      /** undefined: the space's default embedding key (if any); null: full text only. */
      embedding_model_key_id: text().max(64).nullable().optional(),
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
      description: text().trim().max(500).default(''),
      group_id: text().max(64).nullable().default(null),
      /** Changing it re-embeds every indexed unit (they go back to waiting). */
      embedding_model_key_id: text().max(64).nullable(),
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
      keyword: text().trim().max(100).optional(),
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
  unitFromMedia: defineRoute({
    path: '/api/athena/v1/knowledge/unit/from_media',
    body: z.object({ knowledge_id: id, media_item_id: id }),
    data: knowledgeUnitSchema,
    auth: true,
    summary:
      'Add a media library document (PDF, TXT, DOCX, XLSX or CSV, at most 20 MB) to a knowledge base: checked like an upload, then queued for indexing with automatic chunking',
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
      keyword: text().trim().max(100).optional(),
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
      query: text({ error: 'QUERY_REQUIRED' }).trim().min(1, { error: 'QUERY_REQUIRED' }).max(1_000),
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

/** One file into a knowledge base: its raw bytes as the body; the unit starts as not_indexed. */
export const knowledgeUpload = defineUpload({
  path: KNOWLEDGE_UPLOAD_PATH,
  query: z.object({
    knowledge_id: text().max(64),
    /** The file's name (percent-encoded, as every query value). */
    file_name: text().max(4096),
    /** The files uploaded together (the upload page makes one id per visit): at most 10 per batch. */
    batch_id: text().uuid().optional(),
  }),
  headers: noParams,
  contentTypes: ['application/octet-stream'],
  maxBytes: KNOWLEDGE_MAX_FILE_BYTES,
  tooLarge: 'FILE_SIZE_EXCEEDED',
  data: knowledgeUnitSchema,
  auth: true,
  summary:
    'Upload one file to a knowledge base: the raw bytes (PDF, TXT, DOCX, XLSX or CSV, at most 20 MB) as the body, checked by content; the unit starts as not_indexed',
  tag,
});
