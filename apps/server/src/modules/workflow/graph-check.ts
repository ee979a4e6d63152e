import { listedMessages, type WorkflowGraph, type WorkflowNode, type WorkflowProblem } from '@athena/contract';
import { validateGraph } from '@athena/workflow-engine';
import { ownedIds, type Reader } from '../../platform/db/owned-rows.ts';
import { AppError } from '../../platform/http/app-error.ts';
import type { AgentQueries } from '../agent/index.ts';
import type { KnowledgeQueries } from '../knowledge/index.ts';
import type { ModelKeyQueries } from '../model-key/index.ts';
import { workflows } from './workflow.schema.ts';

/** What a graph names that other modules own, asked through their front doors. */
export interface GraphReferences {
  modelKeys: Pick<ModelKeyQueries, 'chatModels'>;
  knowledge: Pick<KnowledgeQueries, 'ownedBaseIds'>;
  agents: Pick<AgentQueries, 'ownedAgentIds'>;
}

const MODEL_NODES = new Set<WorkflowNode['type']>(['llm', 'classifier', 'extractor']);
const label = (node: WorkflowNode) => node.title || node.id;

/**
 * Everything that keeps a graph from being published: the engine's structural problems, then the
 * references only the server can judge. A model, knowledge base, agent or sub-workflow must be
 * this space's own; another team's id reads exactly like a missing one.
 */
export async function graphProblems(
  refs: GraphReferences,
  reader: Reader,
  spaceId: string,
  graph: WorkflowGraph,
  selfId?: string,
) {
  const problems: WorkflowProblem[] = [...validateGraph(graph)];
  const nodes = graph.nodes;
  const incomplete = (node: WorkflowNode, field: string) =>
    problems.push({ code: 'WORKFLOW_NODE_INCOMPLETE', node_id: node.id, params: { node: label(node), field } });

  const modelNodes = nodes.filter((node) => MODEL_NODES.has(node.type));
  if (modelNodes.length > 0) {
    const keys = await refs.modelKeys.chatModels(spaceId, reader);
    for (const node of modelNodes) {
      const keyId = (node.data as { model_key_id: string | null }).model_key_id;
      if (keyId ? !keys.ids.has(keyId) : !keys.hasDefault) {
        problems.push({ code: 'WORKFLOW_MODEL_MISSING', node_id: node.id, params: { node: label(node) } });
      }
    }
  }

  const knowledgeIds = nodes.flatMap((node) => (node.type === 'knowledge' ? node.data.knowledge_ids : []));
  const agentIds = nodes.flatMap((node) => (node.type === 'agent' && node.data.agent_id ? [node.data.agent_id] : []));
  const workflowIds = nodes.flatMap((node) =>
    node.type === 'sub_workflow' && node.data.workflow_id ? [node.data.workflow_id] : [],
  );
  const [knownBases, knownAgents, knownWorkflows] = await Promise.all([
    refs.knowledge.ownedBaseIds(spaceId, knowledgeIds, reader),
    refs.agents.ownedAgentIds(spaceId, agentIds, reader),
    ownedIds(reader, workflows, spaceId, workflowIds),
  ]);
  for (const node of nodes) {
    if (node.type === 'knowledge' && node.data.knowledge_ids.some((id) => !knownBases.has(id))) {
      incomplete(node, 'knowledge bases');
    }
    if (node.type === 'agent' && node.data.agent_id && !knownAgents.has(node.data.agent_id)) incomplete(node, 'agent');
    if (node.type === 'sub_workflow' && node.data.workflow_id) {
      const id = node.data.workflow_id;
      // A workflow that runs itself would never finish.
      if (!knownWorkflows.has(id) || id === selfId) incomplete(node, 'workflow');
    }
  }
  return problems;
}

/**
 * The refusal of a graph that has problems (WORKFLOW_INVALID): it names them, each in the
 * reader's language, so a refused publish or run says what to fix and not only how many.
 */
export const invalidGraph = (problems: Pick<WorkflowProblem, 'code' | 'params'>[]) =>
  new AppError('WORKFLOW_INVALID', { count: problems.length, problems: listedMessages(problems) });
