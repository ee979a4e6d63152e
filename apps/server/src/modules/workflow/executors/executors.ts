import type { Executors } from '@athena/workflow-engine';
import type { LlmGateway } from '../../../platform/llm/llm-gateway.ts';
import type { AgentLookup } from '../../agent/index.ts';
import type { KnowledgeModule } from '../../knowledge/index.ts';
import type { ModelKeyService } from '../../model-key/model-key.service.ts';
import type { CodeExecutorForSpace, TemplateExecutorForSpace } from '../sandbox/index.ts';
import { agentExecutor } from './agent.ts';
import { classifierExecutor } from './classifier.ts';
import { extractorExecutor } from './extractor.ts';
import { httpExecutor } from './http.ts';
import { knowledgeExecutor } from './knowledge.ts';
import { llmExecutor } from './llm.ts';
import { type McpToolServices, mcpToolExecutor } from './mcp-tool.ts';
import { type SubWorkflowDeps, subWorkflowExecutor } from './sub-workflow.ts';

/** What the executors use, the same for every run of the process. */
export interface ExecutorServices {
  modelKeys: Pick<ModelKeyService, 'resolveForUse'>;
  gateway: LlmGateway;
  retrieval: Pick<KnowledgeModule['retrieval'], 'retrieveForAgent'>;
  findAgent: AgentLookup;
  /** The outbound guard's fetch, never allowed private addresses (HTTP nodes are anyone's URLs). */
  httpFetch: typeof fetch;
  /** MCP tool nodes: the team's external MCP servers; absent, those nodes fail as not available. */
  mcp?: McpToolServices;
  /** Code and template nodes, from the sandbox; absent, those nodes fail as not available. */
  sandbox?: { code: CodeExecutorForSpace; template: TemplateExecutorForSpace };
}

/** One run's executors: scoped to its space and caller, and to its depth of sub-workflows. */
export function createExecutors(
  services: ExecutorServices,
  run: { spaceId: string; userId: string | null; workflowId?: string; runId?: string } & SubWorkflowDeps,
): Executors {
  const model = {
    modelKeys: services.modelKeys,
    gateway: services.gateway,
    spaceId: run.spaceId,
    userId: run.userId,
    workflowId: run.workflowId,
    runId: run.runId,
  };
  const knowledge = { retrieval: services.retrieval, spaceId: run.spaceId, userId: run.userId };
  return {
    llm: llmExecutor(model),
    knowledge: knowledgeExecutor(knowledge),
    classifier: classifierExecutor(model),
    extractor: extractorExecutor(model),
    http: httpExecutor({ fetch: services.httpFetch }),
    agent: agentExecutor({ ...model, retrieval: services.retrieval, findAgent: services.findAgent }),
    sub_workflow: subWorkflowExecutor(run),
    ...(services.mcp && { mcp_tool: mcpToolExecutor({ mcp: services.mcp, spaceId: run.spaceId, userId: run.userId }) }),
    ...(services.sandbox && {
      code: services.sandbox.code(run.spaceId),
      template: services.sandbox.template(run.spaceId),
    }),
  };
}
