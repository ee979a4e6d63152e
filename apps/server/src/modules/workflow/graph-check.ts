import { listedMessages, type WorkflowGraph, type WorkflowNode, type WorkflowProblem } from '@athena/contract';
import { validateGraph } from '@athena/workflow-engine';
import { and, eq, inArray } from 'drizzle-orm';
import { isUuid } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { agents } from '../agent/agent.schema.ts';
import { platformModels } from '../billing/usage-charge.schema.ts';
import { knowledgeBases } from '../knowledge/knowledge.schema.ts';
import { modelKeys } from '../model-key/model-key.schema.ts';
import type { Writer } from './workflow.repo.ts';
import { workflows } from './workflow.schema.ts';

const MODEL_NODES = new Set<WorkflowNode['type']>(['llm', 'classifier', 'extractor']);
const label = (node: WorkflowNode) => node.title || node.id;

async function idsIn(
  writer: Writer,
  table: typeof agents | typeof knowledgeBases | typeof workflows,
  spaceId: string,
  ids: string[],
) {
  const wanted = [...new Set(ids)].filter(isUuid);
  if (wanted.length === 0) return new Set<string>();
  const rows = await writer
    .select({ id: table.id })
    .from(table)
    .where(and(inArray(table.id, wanted), eq(table.spaceId, spaceId)));
  return new Set(rows.map((row) => row.id));
}

async function chatKeysOf(writer: Writer, spaceId: string) {
  const rows = await writer
    .select({ id: modelKeys.id, isDefault: modelKeys.isDefault })
    .from(modelKeys)
    .where(and(eq(modelKeys.spaceId, spaceId), eq(modelKeys.purpose, 'chat')));
  // The platform's enabled models may be named too; their calls are charged to the balance.
  const platform = await writer
    .select({ id: platformModels.id })
    .from(platformModels)
    .where(eq(platformModels.enabled, true));
  return {
    ids: new Set([...rows, ...platform].map((row) => row.id)),
    hasDefault: rows.some((row) => row.isDefault),
  };
}

/**
 * Everything that keeps a graph from being published: the engine's structural problems, then the
 * references only the server can judge. A model, knowledge base, agent or sub-workflow must be
 * this space's own; another team's id reads exactly like a missing one.
 */
export async function graphProblems(writer: Writer | Db, spaceId: string, graph: WorkflowGraph, selfId?: string) {
  const problems: WorkflowProblem[] = [...validateGraph(graph)];
  const nodes = graph.nodes;
  const incomplete = (node: WorkflowNode, field: string) =>
    problems.push({ code: 'WORKFLOW_NODE_INCOMPLETE', node_id: node.id, params: { node: label(node), field } });

  const modelNodes = nodes.filter((node) => MODEL_NODES.has(node.type));
  if (modelNodes.length > 0) {
    const keys = await chatKeysOf(writer, spaceId);
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
    idsIn(writer, knowledgeBases, spaceId, knowledgeIds),
    idsIn(writer, agents, spaceId, agentIds),
    idsIn(writer, workflows, spaceId, workflowIds),
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
