import { z } from 'zod';
import { defineRoute } from './envelope.ts';
import { text } from './text.ts';
import { RUN_RESULTS, WORKFLOW_LIMITS, workflowGraphSchema } from './workflow-graph.ts';

// The workflow calls (workflows, groups, drafts, versions, lock, effective, templates, export and
// import of our own file format). The document they carry is in workflow-graph.ts; runs have
// their own routes.
const tag = 'workflow';
const id = text().min(1).max(64);
const page = { page: z.number().int().min(1).default(1), page_size: z.number().int().min(1).max(100).default(20) };

const person = z.object({ id: text(), nickname: text() });

export const workflowNameField = text({ error: 'WORKFLOW_NAME_REQUIRED' })
  .trim()
  .min(1, { error: 'WORKFLOW_NAME_REQUIRED' })
  .max(50, { error: 'WORKFLOW_NAME_TOO_LONG' });
const descriptionField = text().trim().max(500).default('');
const groupNameField = text({ error: 'GROUP_NAME_REQUIRED' })
  .trim()
  .min(1, { error: 'GROUP_NAME_REQUIRED' })
  .max(50, { error: 'WORKFLOW_NAME_TOO_LONG' });

/** A validation problem of a graph: a catalogue key, the node it concerns, and the message's values. */
export const workflowProblemSchema = z.object({
  code: text(),
  node_id: text().nullable(),
  params: z.record(z.string(), z.union([text(), z.number()])),
});
export type WorkflowProblem = z.infer<typeof workflowProblemSchema>;

export const workflowGroupSchema = z.object({
  id: text(),
  name: text(),
  workflow_count: z.number().int(),
  /** Members may rename and delete only the groups they made. */
  created_by: z.object({ id: text() }),
  created_at: text(),
});
export type WorkflowGroup = z.infer<typeof workflowGroupSchema>;

export const workflowSummarySchema = z.object({
  id: text(),
  name: text(),
  description: text(),
  group_id: text().nullable(),
  locked: z.boolean(),
  locked_by: person.nullable(),
  locked_at: text().nullable(),
  /** Whether the published version runs for the API, triggers and sub-workflow nodes. */
  effective: z.boolean(),
  /** The number of the version that is (or would be, once effective) run; null: never published. */
  published_version: z.number().int().nullable(),
  last_run: z.object({ result: z.enum(RUN_RESULTS), at: text() }).nullable(),
  created_by: z.object({ id: text(), nickname: text(), former_member: z.boolean() }),
  created_at: text(),
  updated_at: text(),
  /** What the caller may do, from their role and the workflow's creator (the lock is separate). */
  can_edit: z.boolean(),
  can_lock: z.boolean(),
});
export type WorkflowSummary = z.infer<typeof workflowSummarySchema>;

export const workflowDetailSchema = workflowSummarySchema.extend({
  draft: workflowGraphSchema,
  /** Sent back as `base_revision` with the next draft save; a mismatch is WORKFLOW_DRAFT_CONFLICT. */
  draft_revision: z.number().int(),
  draft_saved_at: text(),
  /** What stands between the draft and publishing (empty when it can be published). */
  problems: z.array(workflowProblemSchema),
});
export type WorkflowDetail = z.infer<typeof workflowDetailSchema>;

export const workflowVersionSchema = z.object({
  id: text(),
  workflow_id: text(),
  /** 1, 2, 3 … per workflow. */
  number: z.number().int(),
  note: text(),
  /** Whether this is the workflow's published (most recent) version. */
  current: z.boolean(),
  node_count: z.number().int(),
  published_by: z.object({ id: text(), nickname: text(), former_member: z.boolean() }),
  published_at: text(),
});
export type WorkflowVersion = z.infer<typeof workflowVersionSchema>;

export const WORKFLOW_TEMPLATE_CATEGORIES = [
  'basic',
  'content',
  'customer_service',
  'knowledge',
  'data',
  'automation',
  /** A template a team saved from one of its workflows. */
  'team',
] as const;
export type WorkflowTemplateCategory = (typeof WORKFLOW_TEMPLATE_CATEGORIES)[number];

export const workflowTemplateSchema = z.object({
  id: text(),
  /** Built-in templates come with the product (in the caller's language); the others are the team's. */
  builtin: z.boolean(),
  name: text(),
  description: text(),
  category: z.enum(WORKFLOW_TEMPLATE_CATEGORIES),
  node_count: z.number().int(),
  graph: workflowGraphSchema,
  /** null for built-in templates. */
  created_by: person.nullable(),
  can_delete: z.boolean(),
});
export type WorkflowTemplate = z.infer<typeof workflowTemplateSchema>;

export const WORKFLOW_LIST_LAST_RESULTS = [...RUN_RESULTS, 'never'] as const;

/** One thing an import changed or left for the user; `key` is an error-catalogue key. */
export const importNoteSchema = z.object({
  key: text(),
  params: z.record(text(), z.union([text(), z.number()])),
  node_id: text().nullable(),
});
export type ImportNote = z.infer<typeof importNoteSchema>;

export const workflowRoutes = {
  groupList: defineRoute({
    path: '/api/athena/v1/workflow/group/list',
    body: z.object({}).nullish(),
    data: z.object({ items: z.array(workflowGroupSchema), ungrouped_count: z.number().int() }),
    auth: true,
    summary: 'Workflow groups of the current space',
    tag,
  }),
  groupCreate: defineRoute({
    path: '/api/athena/v1/workflow/group/create',
    body: z.object({ name: groupNameField }),
    data: workflowGroupSchema,
    auth: true,
    summary: 'Create a workflow group',
    tag,
  }),
  groupRename: defineRoute({
    path: '/api/athena/v1/workflow/group/rename',
    body: z.object({ id, name: groupNameField }),
    data: workflowGroupSchema,
    auth: true,
    summary: 'Rename a workflow group',
    tag,
  }),
  groupDelete: defineRoute({
    path: '/api/athena/v1/workflow/group/delete',
    body: z.object({ id }),
    data: z.null(),
    auth: true,
    summary: 'Delete a group; its workflows become ungrouped (nothing else is deleted)',
    tag,
  }),
  list: defineRoute({
    path: '/api/athena/v1/workflow/list',
    body: z
      .object({
        /** A group id, `ungrouped`, or absent for all. */
        group_id: text().max(64).optional(),
        keyword: text().trim().max(50).optional(),
        effective: z.boolean().optional(),
        locked: z.boolean().optional(),
        /** The last run's result, or `never` for workflows that never ran. */
        last_result: z.enum(WORKFLOW_LIST_LAST_RESULTS).optional(),
        ...page,
      })
      .nullish(),
    data: z.object({ items: z.array(workflowSummarySchema), total: z.number().int() }),
    auth: true,
    summary: 'Workflows of the current space, most recently changed first',
    tag,
  }),
  create: defineRoute({
    path: '/api/athena/v1/workflow/create',
    body: z.object({
      name: workflowNameField,
      description: descriptionField,
      group_id: text().max(64).nullable().default(null),
      /** A built-in or team template to start from; absent: a blank workflow (start → end). */
      template_id: text().max(64).optional(),
    }),
    data: workflowDetailSchema,
    auth: true,
    summary: 'Create a workflow, blank or from a template',
    tag,
  }),
  detail: defineRoute({
    path: '/api/athena/v1/workflow/detail',
    body: z.object({ id }),
    data: workflowDetailSchema,
    auth: true,
    summary: 'One workflow with its draft and the problems of the draft',
    tag,
  }),
  update: defineRoute({
    path: '/api/athena/v1/workflow/update',
    body: z.object({
      id,
      name: workflowNameField,
      description: descriptionField,
      group_id: text().max(64).nullable().default(null),
    }),
    data: workflowSummarySchema,
    auth: true,
    summary: 'Rename, describe or regroup a workflow',
    tag,
  }),
  delete: defineRoute({
    path: '/api/athena/v1/workflow/delete',
    body: z.object({ id }),
    data: z.null(),
    auth: true,
    summary: 'Delete a workflow with its versions and runs',
    tag,
  }),
  draftSave: defineRoute({
    path: '/api/athena/v1/workflow/draft/save',
    body: z.object({
      id,
      graph: workflowGraphSchema,
      /** The `draft_revision` the editor started from. */
      base_revision: z.number().int().min(0),
    }),
    data: z.object({
      revision: z.number().int(),
      saved_at: text(),
      problems: z.array(workflowProblemSchema),
    }),
    auth: true,
    summary: 'Save the draft if nobody saved since base_revision (else WORKFLOW_DRAFT_CONFLICT)',
    tag,
  }),
  publish: defineRoute({
    path: '/api/athena/v1/workflow/publish',
    body: z.object({ id, note: text().trim().max(500).default('') }),
    data: workflowVersionSchema,
    auth: true,
    summary: 'Freeze the draft as a new version, which becomes the effective one',
    tag,
  }),
  effectiveSet: defineRoute({
    path: '/api/athena/v1/workflow/effective/set',
    body: z.object({ id, effective: z.boolean() }),
    data: workflowSummarySchema,
    auth: true,
    summary: 'Make the published version effective or not effective',
    tag,
  }),
  lock: defineRoute({
    path: '/api/athena/v1/workflow/lock',
    body: z.object({ id, locked: z.boolean() }),
    data: workflowSummarySchema,
    auth: true,
    summary: 'Lock or unlock a workflow (its creator or a team admin)',
    tag,
  }),
  versionList: defineRoute({
    path: '/api/athena/v1/workflow/version/list',
    body: z.object({ workflow_id: id }),
    data: z.object({ items: z.array(workflowVersionSchema) }),
    auth: true,
    summary: 'Published versions of a workflow, newest first',
    tag,
  }),
  versionDetail: defineRoute({
    path: '/api/athena/v1/workflow/version/detail',
    body: z.object({ id }),
    data: workflowVersionSchema.extend({ graph: workflowGraphSchema }),
    auth: true,
    summary: 'One published version with its graph',
    tag,
  }),
  versionRestore: defineRoute({
    path: '/api/athena/v1/workflow/version/restore',
    body: z.object({ id, base_revision: z.number().int().min(0) }),
    data: workflowDetailSchema,
    auth: true,
    summary: 'Copy a published version into the draft (the published versions are unchanged)',
    tag,
  }),
  duplicate: defineRoute({
    path: '/api/athena/v1/workflow/duplicate',
    body: z.object({ id }),
    data: workflowDetailSchema,
    auth: true,
    summary: 'A new, unpublished, unlocked workflow with a copy of the draft',
    tag,
  }),
  templateList: defineRoute({
    path: '/api/athena/v1/workflow/template/list',
    body: z.object({}).nullish(),
    data: z.object({ items: z.array(workflowTemplateSchema) }),
    auth: true,
    summary: "Built-in templates (in the caller's language) and the team's own",
    tag,
  }),
  templateSave: defineRoute({
    path: '/api/athena/v1/workflow/template/save',
    body: z.object({ workflow_id: id, name: workflowNameField, description: descriptionField }),
    data: workflowTemplateSchema,
    auth: true,
    summary: 'Save the draft of a workflow as a team template (values of secrets blanked)',
    tag,
  }),
  templateDelete: defineRoute({
    path: '/api/athena/v1/workflow/template/delete',
    body: z.object({ id }),
    data: z.null(),
    auth: true,
    summary: 'Delete a team template',
    tag,
  }),
  export: defineRoute({
    path: '/api/athena/v1/workflow/export',
    body: z.object({ id }),
    data: z.object({ file_name: text(), content: text() }),
    auth: true,
    summary: 'The draft as an athena-workflow JSON file (values of secrets blanked)',
    tag,
  }),
  import: defineRoute({
    path: '/api/athena/v1/workflow/import',
    body: z.object({
      /** The file's text: our athena-workflow JSON, or a Dify DSL YAML file (app modes workflow and advanced-chat). */
      content: text()
        .min(1, { error: 'WORKFLOW_IMPORT_INVALID' })
        .max(WORKFLOW_LIMITS.maxDocumentBytes, { error: 'WORKFLOW_TOO_LARGE' }),
      /** Overrides the file's name. */
      name: workflowNameField.optional(),
      group_id: text().max(64).nullable().default(null),
    }),
    data: workflowDetailSchema.extend({
      /** What the import could not carry over as it was (a Dify model left unset, a tool node as a placeholder…). */
      import_notes: z.array(importNoteSchema),
    }),
    auth: true,
    summary: 'Create a workflow from an exported file or a Dify DSL file',
    tag,
  }),
} as const;
