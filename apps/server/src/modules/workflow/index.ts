import { runSingleNode, runWorkflow } from '@athena/workflow-engine';
import type { Config } from '../../config.ts';
import type { AppModule, PlatformDeps } from '../../platform/module.ts';
import type { RateLimits } from '../../platform/rate-limit/rate-limits.ts';
import type { AgentModule } from '../agent/index.ts';
import type { KnowledgeModule } from '../knowledge/index.ts';
import type { McpClientModule } from '../mcp-client/index.ts';
import type { ModelKeyModule } from '../model-key/index.ts';
import type { AuditRepo } from '../team/index.ts';
import { createDifyImporter } from './dify/dify-importer.ts';
import { createDraftService } from './draft.service.ts';
import { createWorkflowGroupService } from './group.service.ts';
import { createWorkflowQueries } from './queries.ts';
import { createWorkflowRuns } from './runs/runs.module.ts';
import { createSandbox, sandboxOptionsOf } from './sandbox/index.ts';
import { createTemplateService } from './template.service.ts';
import { createTransferService } from './transfer.service.ts';
import { createWorkflowTriggers } from './triggers/triggers.module.ts';
import { registerWorkflowRoutes } from './workflow.routes.ts';
import { createWorkflowService } from './workflow.service.ts';

export type WorkflowModule = ReturnType<typeof createWorkflowModule>;
export type { WorkflowQueries } from './queries.ts';

/**
 * Workflows: groups, drafts with revisions, published versions, effective and locked states,
 * templates, and export/import of our own file. docs/workflows.md describes them.
 */
export function createWorkflowModule(
  deps: PlatformDeps & {
    config: Config;
    modelKey: ModelKeyModule;
    knowledge: KnowledgeModule;
    /** Agents a graph's agent nodes name. */
    agent: Pick<AgentModule, 'queries'>;
    /** No other process uses the database, so at start every run still running is orphaned. */
    soleProcess: boolean;
    rateLimits: RateLimits;
    /** Seals webhook signing secrets. */
    masterKey: Buffer;
    /** The team's external MCP servers, for MCP tool nodes. */
    mcpClient: Pick<McpClientModule, 'callExternalTool' | 'inputSchemaOf'>;
    /** The team's audit log, for workflow changes. */
    audit: AuditRepo;
  },
) {
  const { db, now } = deps;
  const references = {
    modelKeys: deps.modelKey.queries,
    knowledge: deps.knowledge.queries,
    agents: deps.agent.queries,
  };
  const groups = createWorkflowGroupService({ db });
  const workflows = createWorkflowService({
    db,
    audit: deps.audit,
    groups,
    now,
    references,
    templateGraph: (spaceId, id, language) => templates.graphOf(spaceId, id, language),
  });
  const templates = createTemplateService({ db, workflows });
  const drafts = createDraftService({ db, audit: deps.audit, workflows, now, references });
  const transfer = createTransferService({
    workflows,
    dify: createDifyImporter(),
    // Our keys name no vendor; the converter then matches on the model name alone.
    modelKeysOf: async (ctx) =>
      (await deps.modelKey.modelKeys.list(ctx, 'chat')).items.map((key) => ({
        id: key.id,
        name: key.model_name,
        provider: '',
        models: [key.version],
      })),
  });
  // Runs, their executors and the sweep of runs a stopped process left (docs/workflow-runs.md).
  // Code and template nodes run in a sandbox process started on first use (docs/workflow-sandbox.md).
  const sandbox = createSandbox(sandboxOptionsOf(deps.config), { warn: (message) => deps.log.warn(message) });
  const runs = createWorkflowRuns({ ...deps, sandbox, engine: { runWorkflow, runSingleNode } });
  // API keys, webhooks and schedules run the effective version (docs/workflow-triggers.md).
  const triggers = createWorkflowTriggers({
    ...deps,
    runs,
    apiCallsPerMinute: deps.config.WORKFLOW_API_CALLS_PER_MINUTE,
  });
  const module: AppModule = {
    name: 'workflow',
    routes: async (app) => {
      await registerWorkflowRoutes(app, { workflows, drafts, groups, templates, transfer });
      runs.routes(app);
      await triggers.routes(app);
    },
    onStart: runs.onStart,
    schedules: [...runs.schedules, ...triggers.schedules],
    workers: triggers.workers,
  };
  /** What other modules may read of workflows. */
  const queries = createWorkflowQueries(db);
  return { module, workflows, drafts, runs: runs.runs, triggers, queries };
}
