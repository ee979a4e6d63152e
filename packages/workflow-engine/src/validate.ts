import type { WorkflowGraph, WorkflowNode } from '@athena/contract';
import { buildIndex, edgeValid, type GraphIndex, isScopeNode } from './graph-index.ts';
import { readsOf } from './reads.ts';
import type { GraphProblem } from './types.ts';
import { createScopeReader } from './variables.ts';

// Everything that keeps a graph from being published or run, as catalogue codes the editor shows
// beside the node and the server returns with WORKFLOW_INVALID. Problems come in a stable order:
// ids, start and end, each node's own settings, edges, connections, cycles, then selectors.

const titleOf = (node: WorkflowNode) => node.title || node.id;

function problem(code: string, node: WorkflowNode | null, params: Record<string, string | number> = {}): GraphProblem {
  return { code, node_id: node?.id ?? null, params: node ? { node: titleOf(node), ...params } : params };
}

/** A field a node needs before it can run, named in short English for the message. */
function missingField(node: WorkflowNode): string | null {
  switch (node.type) {
    case 'agent':
      return node.data.agent_id.trim() ? null : 'agent';
    case 'sub_workflow':
      return node.data.workflow_id.trim() ? null : 'workflow';
    case 'mcp_tool':
      return node.data.server_id.trim() && node.data.tool.trim() ? null : 'MCP tool';
    case 'code':
      return node.data.code.trim() ? null : 'code';
    case 'http':
      return node.data.url.trim() ? null : 'URL';
    case 'knowledge':
      return node.data.knowledge_ids.length > 0 ? null : 'knowledge bases';
    case 'template':
      return node.data.template.trim() ? null : 'template';
    case 'answer':
      return node.data.text.trim() ? null : 'text';
    case 'llm':
      return node.data.user_prompt.trim() || node.data.system_prompt.trim() ? null : 'prompt';
    case 'extractor':
      return node.data.parameters.length > 0 ? null : 'parameters';
    case 'classifier':
      return node.data.classes.every((item) => item.name.trim()) ? null : 'classes';
    case 'if_else':
      return node.data.cases.every((item) => item.conditions.length > 0) ? null : 'conditions';
    default:
      return null;
  }
}

/** Strongly connected components that form a cycle (Tarjan's, without recursion), over edges in one scope. */
function cyclesOf(index: GraphIndex): number[][] {
  const count = index.nodes.length;
  if (index.order.length === count) return [];
  const inOrder = new Uint8Array(count);
  for (const at of index.order) inOrder[at] = 1;
  const seen = new Int32Array(count).fill(-1);
  const low = new Int32Array(count);
  const onStack = new Uint8Array(count);
  const stack: number[] = [];
  const found: number[][] = [];
  let counter = 0;
  const enter = (at: number) => {
    seen[at] = low[at] = counter++;
    stack.push(at);
    onStack[at] = 1;
  };
  for (let root = 0; root < count; root++) {
    if (inOrder[root] || seen[root] !== -1) continue;
    enter(root);
    const work: Array<[number, number]> = [[root, 0]];
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const [at, next] = frame;
      const succs = index.succs[at]!;
      if (next < succs.length) {
        frame[1]++;
        const to = succs[next]!;
        if (inOrder[to]) continue;
        if (seen[to] === -1) {
          enter(to);
          work.push([to, 0]);
        } else if (onStack[to]) low[at] = Math.min(low[at]!, seen[to]!);
        continue;
      }
      work.pop();
      const caller = work[work.length - 1];
      if (caller) low[caller[0]] = Math.min(low[caller[0]]!, low[at]!);
      if (low[at] !== seen[at]) continue;
      const component: number[] = [];
      let member: number;
      do {
        member = stack.pop()!;
        onStack[member] = 0;
        component.push(member);
      } while (member !== at);
      if (component.length > 1 || succs.includes(at)) found.push(component.sort((a, b) => a - b));
    }
  }
  return found.sort((a, b) => a[0]! - b[0]!);
}

const RESERVED_IDS = new Set(['sys', 'env']);

export function validateGraph(graph: WorkflowGraph): GraphProblem[] {
  const problems: GraphProblem[] = [];
  const index = buildIndex(graph);
  const { nodes } = index;

  const ids = new Set<string>();
  for (const node of graph.nodes) {
    // A selector's first part names a node, or the system or environment variables: a node with
    // such an id could never be read, and would hide those variables.
    if (RESERVED_IDS.has(node.id)) problems.push(problem('WORKFLOW_NODE_ID_INVALID', node));
    if (ids.has(node.id)) problems.push(problem('WORKFLOW_NODE_DUPLICATE_ID', node, { node: node.id }));
    ids.add(node.id);
  }

  const starts = nodes.filter((node) => node.type === 'start');
  const topStarts = starts.filter((node) => node.parent_id === null);
  if (topStarts.length === 0) problems.push(problem('WORKFLOW_START_MISSING', null));
  for (const node of starts) {
    if (node !== topStarts[0]) problems.push(problem('WORKFLOW_START_DUPLICATE', node));
  }
  if (!nodes.some((node) => node.parent_id === null && (node.type === 'end' || node.type === 'answer'))) {
    problems.push(problem('WORKFLOW_END_MISSING', null));
  }

  for (const node of nodes) {
    if (node.type === 'unsupported') {
      problems.push(problem('WORKFLOW_NODE_UNSUPPORTED', node, { type: node.data.original_type }));
    }
    const field = missingField(node);
    if (field) problems.push(problem('WORKFLOW_NODE_INCOMPLETE', node, { field }));
  }

  const hasIncoming = new Uint8Array(nodes.length);
  const hasOutgoing = new Uint8Array(nodes.length);
  const hasBody = new Uint8Array(nodes.length);
  for (const edge of graph.edges) {
    const from = index.position.get(edge.source);
    const to = index.position.get(edge.target);
    if (!edgeValid(index, edge)) {
      const culprit = nodes[from ?? to ?? -1] ?? null;
      problems.push(problem('WORKFLOW_EDGE_INVALID', culprit, { edge: edge.id }));
      continue;
    }
    hasIncoming[to!] = 1;
    if (edge.source_handle === 'body') hasBody[from!] = 1;
    else hasOutgoing[from!] = 1;
  }

  for (let at = 0; at < nodes.length; at++) {
    const node = nodes[at]!;
    if (isScopeNode(node) && !hasBody[at]) problems.push(problem('WORKFLOW_NODE_INCOMPLETE', node, { field: 'body' }));
    const orphan = node.parent_id !== null && index.parent[at] === -1;
    const unconnected =
      orphan || (node.type === 'start' ? node.parent_id === null && !hasOutgoing[at] : !hasIncoming[at]);
    if (unconnected) problems.push(problem('WORKFLOW_NODE_UNCONNECTED', node));
  }

  for (const component of cyclesOf(index)) problems.push(problem('WORKFLOW_CYCLE', nodes[component[0]!]!));

  const reader = createScopeReader(index);
  for (let at = 0; at < nodes.length; at++) {
    const node = nodes[at]!;
    const reported = new Set<string>();
    for (const read of readsOf(node)) {
      if (reader.canRead(at, read.selector, read.scope)) continue;
      const selector = read.selector.join('.');
      if (reported.has(selector)) continue;
      reported.add(selector);
      problems.push(problem('WORKFLOW_SELECTOR_UNKNOWN', node, { selector }));
    }
  }
  return problems;
}
