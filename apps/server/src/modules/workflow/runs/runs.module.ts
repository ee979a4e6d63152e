import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { createOutboundFetch } from '../../../platform/llm/outbound-guard.ts';
import type { PlatformDeps, ScheduledJob } from '../../../platform/module.ts';
import { createAgentLookup } from '../../agent/index.ts';
import type { KnowledgeModule } from '../../knowledge/index.ts';
import type { McpClientModule } from '../../mcp-client/index.ts';
import type { ModelKeyModule } from '../../model-key/index.ts';
import { createExecutors, type ExecutorServices } from '../executors/executors.ts';
import { createCodeExecutor, createTemplateExecutor, type Sandbox } from '../sandbox/index.ts';
import { createLiveRuns } from './live-runs.ts';
import { createRunRepo } from './run.repo.ts';
import { registerRunRoutes } from './run.routes.ts';
import { createRunService } from './run.service.ts';
import { runEventsPurgeJob } from './run-events-purge.job.ts';
import type { RunWorkflow } from './run-execution.ts';
import { createSingleNodeService, type RunSingleNode } from './single-node.service.ts';
import { RUN_STALE_MS } from './supervised-run.ts';
import { createWorkflowSource } from './workflow-source.repo.ts';

export interface WorkflowRunsDeps extends PlatformDeps {
  modelKey: Pick<ModelKeyModule, 'gateway' | 'modelKeys'>;
  knowledge: Pick<KnowledgeModule, 'retrieval'>;
  /** No other process uses the database, so at start every run still running is orphaned. */
  soleProcess: boolean;
  engine: { runWorkflow: RunWorkflow; runSingleNode: RunSingleNode };
  /** Runs code and template nodes; closed with the server. */
  sandbox: Sandbox;
  /** The team's external MCP servers, for MCP tool nodes. */
  mcpClient: Pick<McpClientModule, 'callExternalTool' | 'inputSchemaOf'>;
}

/**
 * The runs part of the workflow module: executors, the run service and its routes, and the sweep
 * that fails runs whose process stopped. The workflow module's front door mounts what this returns.
 */
export function createWorkflowRuns(deps: WorkflowRunsDeps) {
  const { db, log, now } = deps;
  const repo = createRunRepo({ db, now });
  const source = createWorkflowSource(db);
  const live = createLiveRuns();
  let server: Server | null = null;
  const executorServices: ExecutorServices = {
    modelKeys: deps.modelKey.modelKeys,
    gateway: deps.modelKey.gateway,
    retrieval: deps.knowledge.retrieval,
    findAgent: createAgentLookup(db),
    // A workflow's URLs are anyone's: private addresses stay refused whatever model endpoints may reach.
    httpFetch: createOutboundFetch({ allowPrivate: false }),
    sandbox: { code: createCodeExecutor(deps.sandbox), template: createTemplateExecutor(deps.sandbox) },
    mcp: { inputSchema: deps.mcpClient.inputSchemaOf, call: deps.mcpClient.callExternalTool },
  };
  const runs = createRunService({
    repo,
    live,
    source,
    events: deps.events,
    log,
    executorServices,
    runWorkflow: deps.engine.runWorkflow,
    server: () => server,
  });
  const singleNode = createSingleNodeService({
    repo,
    live,
    log,
    server: () => server,
    source,
    runSingleNode: deps.engine.runSingleNode,
    executors: (spaceId, userId) =>
      createExecutors(executorServices, {
        spaceId,
        userId,
        depth: 0,
        runEffective: () => Promise.reject(new Error('a single node does not run sub-workflows')),
      }),
  });

  const markStopped = async (before: Date) => {
    const stopped = await repo.markStopped(before, { code: 'WORKFLOW_SERVER_STOPPED', params: {}, detail: '' });
    for (const run of stopped) await source.recordLastRun(run.workflowId, 'failed', run.createdAt);
    if (stopped.length > 0)
      log.warn({ count: stopped.length }, 'workflow runs left running by a stopped process failed');
  };
  const staleBefore = () => new Date(now().getTime() - RUN_STALE_MS);
  const schedules: ScheduledJob[] = [
    { name: 'workflow.interrupted-runs', cron: '* * * * *', run: () => markStopped(staleBefore()) },
    runEventsPurgeJob({ db, now, log }),
  ];
  return {
    runs,
    live,
    routes(app: FastifyInstance) {
      server = app.server;
      // After the runs: a shutdown drains them (open-streams) before the app closes.
      app.addHook('onClose', () => deps.sandbox.close());
      registerRunRoutes(app, { runs, singleNode, live, repo });
    },
    onStart: () => markStopped(deps.soleProcess ? now() : staleBefore()),
    schedules,
  };
}
export type WorkflowRuns = ReturnType<typeof createWorkflowRuns>;
