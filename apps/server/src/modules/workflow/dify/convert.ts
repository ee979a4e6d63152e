import {
  type EnvironmentVariable,
  WORKFLOW_FILE_FORMAT,
  WORKFLOW_FILE_VERSION,
  WORKFLOW_LIMITS,
  type WorkflowEdge,
  type WorkflowFile,
  type WorkflowNode,
  workflowFileSchema,
} from '@athena/contract';
import { AppError } from '../../../platform/http/app-error.ts';
import { checkDifyHeader } from './dify-header.ts';
import { type DifyConvertContext, errorHandling, type MappedNode, type NodeInfo } from './node-parts.ts';
import { answerNode, codeNode, endNode, knowledgeNode, startNode, templateNode } from './nodes-basic.ts';
import { aggregatorNode, assignerNode, ifElseNode, iterationNode, listOperatorNode, loopNode } from './nodes-flow.ts';
import { httpNode, summaryOf } from './nodes-http.ts';
import { classifierNode, extractorNode, llmNode } from './nodes-model.ts';
import { Conversion, type ImportNote } from './references.ts';
import { asText, cut, list, num, type Rec, rec, storable, str } from './values.ts';

export type { DifyConvertContext, ModelKeyChoice } from './node-parts.ts';
export type { ImportNote } from './references.ts';

type Mapper = (data: Rec, c: Conversion, node: NodeInfo, context: DifyConvertContext) => MappedNode | null;

const MAPPERS: Record<string, Mapper> = {
  start: startNode,
  end: endNode,
  answer: answerNode,
  llm: llmNode,
  'knowledge-retrieval': knowledgeNode,
  'question-classifier': classifierNode,
  'parameter-extractor': extractorNode,
  'if-else': ifElseNode,
  'template-transform': templateNode,
  code: codeNode,
  'http-request': httpNode,
  'variable-aggregator': aggregatorNode,
  // Before 0.1.5 the aggregator was called variable-assigner; the assigner was added later as `assigner`.
  'variable-assigner': aggregatorNode,
  assigner: assignerNode,
  'list-operator': listOperatorNode,
  iteration: iterationNode,
  loop: loopNode,
};

/** Outputs Dify names differently: selectors that read them are renamed. */
const OUTPUT_NAMES: Record<string, Array<[string, string]>> = {
  llm: [['structured_output', 'structured']],
  'list-operator': [
    ['first_record', 'first'],
    ['last_record', 'last'],
  ],
};

/** The nodes that only mark where an iteration's or loop's body starts; an edge says it here. */
const BODY_STARTS = new Set(['iteration-start', 'loop-start']);

interface DifyNode {
  difyId: string;
  type: string;
  raw: Rec;
  data: Rec;
}

/**
 * A parsed Dify DSL file (app modes workflow and advanced-chat, DSL 0.1.x to 0.5.x) as our
 * workflow file, with notes on what the person must look at. The result always passes our
 * schema; a file that is not a Dify workflow is refused with a catalogue error.
 */
export function convertDifyDsl(
  input: unknown,
  context: DifyConvertContext,
): { file: WorkflowFile; notes: ImportNote[] } {
  const doc = rec(storable(input));
  checkDifyHeader(doc);
  const workflow = rec(doc.workflow);
  const graph = rec(workflow.graph);
  if (list(graph.nodes).length > WORKFLOW_LIMITS.maxNodes || list(graph.edges).length > WORKFLOW_LIMITS.maxEdges)
    throw new AppError('WORKFLOW_TOO_LARGE');

  const c = new Conversion();
  const all: DifyNode[] = list(graph.nodes).map((raw) => {
    const node = rec(raw);
    return { difyId: str(node.id), type: str(rec(node.data).type), raw: node, data: rec(node.data) };
  });
  // Canvas notes (type custom-note) and nodes without an id or type carry no behaviour.
  const kept = all.filter((node) => node.difyId !== '' && node.type !== '' && str(node.raw.type) !== 'custom-note');
  const bodyStarts = new Map<string, string>();
  for (const node of kept) {
    if (BODY_STARTS.has(node.type)) bodyStarts.set(node.difyId, str(node.raw.parentId));
    else c.claimId(node.difyId);
    if (node.type === 'start') c.markStart(node.difyId);
    for (const [from, to] of OUTPUT_NAMES[node.type] ?? []) c.renameOutput(node.difyId, from, to);
  }
  const environment = environmentOf(workflow, c);
  c.environmentIs(
    environment.map((variable) => variable.name),
    ENV_LIMIT,
  );

  const types = new Map(kept.map((node) => [node.difyId, node.type]));
  const mapped = new Map<string, WorkflowNode>();
  // Start first: it may rename its inputs, and every later node's selectors must see that.
  const ordered = [...kept.filter((node) => node.type === 'start'), ...kept.filter((node) => node.type !== 'start')];
  for (const node of ordered) {
    if (BODY_STARTS.has(node.type)) continue;
    mapped.set(node.difyId, mapNode(node, c, context, types));
  }
  const nodes = kept.flatMap((node) => mapped.get(node.difyId) ?? []);
  const edges = edgesOf(graph, kept, mapped, bodyStarts);

  const app = rec(doc.app);
  const file = {
    format: WORKFLOW_FILE_FORMAT,
    version: WORKFLOW_FILE_VERSION,
    name: cut(str(app.name).trim(), 50),
    description: cut(str(app.description), 500),
    graph: {
      nodes,
      edges,
      // Secrets the nodes held in plain text come last, sealed like any secret variable.
      environment: [...environment, ...c.secrets],
      settings: { max_steps: WORKFLOW_LIMITS.maxStepsDefault, max_run_ms: WORKFLOW_LIMITS.maxRunMsDefault },
    },
  };
  // The placeholders keep Dify's whole setting for reference; they go first if the file is too big.
  if (JSON.stringify(file).length > WORKFLOW_LIMITS.maxDocumentBytes)
    for (const node of nodes) if (node.type === 'unsupported') node.data.original = {};
  const checked = workflowFileSchema.safeParse(file);
  if (!checked.success)
    throw new Error(
      `the Dify conversion produced an invalid document: ${JSON.stringify(checked.error.issues.slice(0, 3))}`,
    );
  return { file: checked.data, notes: c.notes };
}

function mapNode(node: DifyNode, c: Conversion, context: DifyConvertContext, types: Map<string, string>): WorkflowNode {
  const id = c.claimId(node.difyId);
  const title = cut(str(node.data.title), 100);
  const info: NodeInfo = { difyId: node.difyId, id, label: title || id };
  const result = MAPPERS[node.type]?.(node.data, c, info, context) ?? null;
  const parentDifyId = str(node.raw.parentId) || str(node.data.iteration_id) || str(node.data.loop_id);
  const parentType = types.get(parentDifyId);
  const position = rec(node.raw.position);
  const base = {
    id,
    title,
    description: cut(str(node.data.desc), 1_000),
    position: { x: num(position.x) ?? 0, y: num(position.y) ?? 0 },
    parent_id: parentType === 'iteration' || parentType === 'loop' ? (c.idOf(parentDifyId) ?? null) : null,
    errors: errorHandling(node.data, c, info),
  };
  if (result) return { ...base, ...result } as WorkflowNode;
  c.note('WORKFLOW_IMPORT_NODE_PLACEHOLDER', { node: info.label, type: cut(node.type, 100) }, id);
  return {
    ...base,
    type: 'unsupported',
    data: {
      original_type: cut(node.type, 200),
      summary: cut(summaryOf(node.type, node.data), 2_000),
      original: node.data,
    },
  };
}

/**
 * Dify's handles in ours: `source` is `out`, `fail-branch` is `fail`, an old if/else's `false` is
 * `else`, and an edge leaving an iteration-start or loop-start leaves the iteration or loop itself
 * by `body`. A 0.1.0 iteration has no start node; its `start_node_id` names the first body node.
 */
function edgesOf(
  graph: Rec,
  kept: DifyNode[],
  mapped: Map<string, WorkflowNode>,
  bodyStarts: Map<string, string>,
): WorkflowEdge[] {
  const links: Array<[string, string, string]> = [];
  for (const raw of list(graph.edges)) {
    const edge = rec(raw);
    let source = str(edge.source);
    const target = mapped.get(str(edge.target));
    let handle = str(edge.sourceHandle) || 'source';
    if (bodyStarts.has(source)) {
      source = bodyStarts.get(source) ?? '';
      handle = 'body';
    }
    const from = mapped.get(source);
    if (!from || !target) continue;
    if (handle === 'source') handle = 'out';
    else if (handle === 'fail-branch') handle = 'fail';
    else if (handle === 'false' && from.type === 'if_else') handle = 'else';
    links.push([from.id, cut(handle, 64), target.id]);
  }
  for (const node of kept) {
    const start = str(node.data.start_node_id);
    const from = mapped.get(node.difyId);
    const first = mapped.get(start);
    if (from && first && (node.type === 'iteration' || node.type === 'loop')) links.push([from.id, 'body', first.id]);
  }
  const seen = new Set<string>();
  const edges: WorkflowEdge[] = [];
  for (const [source, handle, target] of links) {
    const id = cut(`${source}-${handle}-${target}`, 140);
    if (seen.has(id)) continue;
    seen.add(id);
    edges.push({ id, source, source_handle: handle, target });
  }
  if (edges.length > WORKFLOW_LIMITS.maxEdges) throw new AppError('WORKFLOW_TOO_LARGE');
  return edges;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Environment variables a workflow may have (the graph schema's limit). */
const ENV_LIMIT = 50;

/**
 * Dify's environment variables, then its conversation variables (chatflows), as our environment.
 * Exported secrets have no value; they stay empty, with a note to fill them in.
 */
function environmentOf(workflow: Rec, c: Conversion): EnvironmentVariable[] {
  const out: EnvironmentVariable[] = [];
  const taken = new Set<string>();
  for (const raw of list(workflow.environment_variables)) {
    const variable = rec(raw);
    const name = str(variable.name);
    if (!ENV_NAME.test(name) || name.length > 64 || taken.has(name)) continue;
    const type =
      str(variable.value_type) === 'secret' ? 'secret' : str(variable.value_type) === 'number' ? 'number' : 'string';
    const value = type === 'secret' ? '' : cut(asText(variable.value), 10_000);
    if (type === 'secret') c.note('WORKFLOW_IMPORT_SECRET_EMPTY', { name });
    taken.add(name);
    out.push({ name, type, value });
  }
  for (const raw of list(workflow.conversation_variables)) {
    const variable = rec(raw);
    const name = str(variable.name);
    if (!ENV_NAME.test(name) || name.length > 60) continue;
    let envName = name;
    for (let n = 2; taken.has(envName); n++) envName = `${name}_${n}`;
    taken.add(envName);
    c.setEnvName(name, envName);
    c.note('WORKFLOW_IMPORT_CONVERSATION_VARIABLE', { name, env: envName });
    const type = str(variable.value_type) === 'number' ? 'number' : 'string';
    out.push({ name: envName, type, value: cut(asText(variable.value), 10_000) });
  }
  return out.slice(0, ENV_LIMIT);
}
