import {
  isErrorKey,
  WORKFLOW_FILE_FORMAT,
  WORKFLOW_FILE_VERSION,
  WORKFLOW_LIMITS,
  type WorkflowFile,
  type WorkflowGraph,
  workflowFileSchema,
} from '@athena/contract';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import { AppError } from '../../platform/http/app-error.ts';
import type { ImportNote, ModelKeyChoice } from './dify/convert.ts';
import type { DifyImporter } from './dify/dify-importer.ts';
import { looksLikeDifyDsl } from './dify/dsl-sniff.ts';
import { type WorkflowService, withoutSecrets } from './workflow.service.ts';

export type TransferService = ReturnType<typeof createTransferService>;

/** What an imported file becomes: the new workflow's name, description and draft. */
export interface ImportedWorkflow {
  name: string;
  description: string;
  graph: WorkflowGraph;
  notes: ImportNote[];
}

const invalid = (detail: string) => new AppError('WORKFLOW_IMPORT_INVALID', { detail });

/** Our own file: JSON with `format` and `version`, checked against the contract's file schema. */
export function readAthenaFile(content: string): ImportedWorkflow {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    throw invalid('not JSON');
  }
  const header = (value ?? {}) as { format?: unknown; version?: unknown };
  if (typeof value !== 'object' || value === null || header.format !== WORKFLOW_FILE_FORMAT) {
    throw invalid(`not an ${WORKFLOW_FILE_FORMAT} file`);
  }
  if (header.version !== WORKFLOW_FILE_VERSION) {
    throw new AppError('WORKFLOW_IMPORT_VERSION_UNSUPPORTED', { version: String(header.version).slice(0, 20) });
  }
  const parsed = workflowFileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue && isErrorKey(issue.message) && issue.message.startsWith('WORKFLOW_')) throw new AppError(issue.message);
    const where = issue?.path.join('.') || 'file';
    throw invalid(`${where}: ${issue?.message ?? 'invalid'}`.slice(0, 300));
  }
  const file: WorkflowFile = parsed.data;
  return { name: file.name, description: file.description, graph: file.graph, notes: [] };
}

/**
 * Export and import. Export writes the draft as our JSON file with secrets' values blanked; import
 * reads our file back into a new workflow, so an export imports to an equal graph. A Dify DSL file
 * is converted in a worker thread (docs/workflow-import.md), with notes on what did not carry over.
 */
export function createTransferService(deps: {
  workflows: WorkflowService;
  dify: DifyImporter;
  /** The space's chat keys, for matching a Dify node's model to one of them. */
  modelKeysOf: (ctx: AuthContext) => Promise<ModelKeyChoice[]>;
}) {
  const { workflows } = deps;

  async function read(ctx: AuthContext, content: string): Promise<ImportedWorkflow> {
    // The Dify importer enforces the same size cap itself, before any thread is used.
    if (looksLikeDifyDsl(content)) {
      const { file, notes } = await deps.dify.convert(content, { modelKeys: await deps.modelKeysOf(ctx) });
      return { name: file.name, description: file.description, graph: file.graph, notes };
    }
    if (Buffer.byteLength(content, 'utf8') > WORKFLOW_LIMITS.maxDocumentBytes) throw new AppError('WORKFLOW_TOO_LARGE');
    return readAthenaFile(content);
  }

  return {
    async exportFile(ctx: AuthContext, id: string) {
      const { row } = await workflows.access.load(ctx, id);
      const draft = await workflows.repo.draftOf(row.workflow.id);
      if (!draft) throw new AppError('WORKFLOW_NOT_FOUND');
      const file: WorkflowFile = {
        format: WORKFLOW_FILE_FORMAT,
        version: WORKFLOW_FILE_VERSION,
        name: row.workflow.name,
        description: row.workflow.description,
        graph: withoutSecrets(draft.draft),
      };
      const safeName = row.workflow.name.replace(/[\\/:*?"<>|\p{Cc}]+/gu, '_').trim() || 'workflow';
      return { file_name: `${safeName}.athena-workflow.json`, content: JSON.stringify(file, null, 2) };
    },

    async importFile(ctx: AuthContext, body: { content: string; name?: string; group_id: string | null }) {
      authorize(ctx, 'workflow.create');
      const imported = await read(ctx, body.content);
      const name = (body.name ?? imported.name).trim().slice(0, 50);
      if (!name) throw new AppError('WORKFLOW_NAME_REQUIRED');
      const created = await workflows.createWith(
        ctx,
        { name, description: imported.description.slice(0, 500), group_id: body.group_id },
        imported.graph,
      );
      return { ...created, import_notes: imported.notes };
    },
  };
}
