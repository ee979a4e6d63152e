import type { Selector, WorkflowGraph, WorkflowNode } from '@athena/contract';
import { buildIndex, enclosingOf, type GraphIndex, hasBit } from './graph-index.ts';
import { type NodeOutput, outputsOf, SYSTEM_OUTPUTS } from './outputs.ts';
import type { ReadScope } from './reads.ts';
import type { OfferedVariable } from './types.ts';

// What a node may read: the outputs of the nodes upstream of it in its own scope, the same for
// every iteration or loop around it (a body reads what its iteration could read), the item and
// index of each iteration around it, the variables of each loop around it, `sys.*` and `env.*`.

const SYSTEM_NAMES = new Set(SYSTEM_OUTPUTS.map((output) => output.name));

/** The values an iteration or loop offers to the nodes of its body. */
export function scopeOutputsOf(node: WorkflowNode): NodeOutput[] {
  if (node.type === 'iteration') {
    return [
      { name: 'item', type: 'any' },
      { name: 'index', type: 'number' },
    ];
  }
  if (node.type === 'loop')
    return node.data.variables.map((variable) => ({ name: variable.name, type: variable.type }));
  return [];
}

export interface ScopeReader {
  index: GraphIndex;
  /** Whether the node at `at` may read `selector` from where the scope says it must point. */
  canRead(at: number, selector: Selector, scope: ReadScope): boolean;
  /** Whether the node at `from` is upstream of the node at `at` (or of an iteration/loop around it). */
  isUpstream(at: number, from: number): boolean;
}

export function createScopeReader(index: GraphIndex): ScopeReader {
  const names = new Map<number, Set<string>>();
  const outputNames = (at: number) => {
    let set = names.get(at);
    if (!set) {
      set = new Set(outputsOf(index.nodes[at]!).map((output) => output.name));
      names.set(at, set);
    }
    return set;
  };
  const environment = new Set(index.graph.environment.map((variable) => variable.name));

  const isUpstream = (at: number, from: number) => {
    if (hasBit(index.ancestors[at]!, from)) return true;
    for (const outer of enclosingOf(index, at)) if (hasBit(index.ancestors[outer]!, from)) return true;
    return false;
  };

  const offered = (at: number, [head, name]: Selector): boolean => {
    if (head === 'sys') return SYSTEM_NAMES.has(name!);
    if (head === 'env') return environment.has(name!);
    const from = index.position.get(head!);
    if (from === undefined) return false;
    if (enclosingOf(index, at).includes(from)) {
      return scopeOutputsOf(index.nodes[from]!).some((output) => output.name === name);
    }
    return isUpstream(at, from) && outputNames(from).has(name!);
  };

  const inBody = (at: number, [head, name]: Selector): boolean => {
    const from = index.position.get(head!);
    return from !== undefined && index.parent[from] === at && outputNames(from).has(name!);
  };

  const canRead = (at: number, selector: Selector, scope: ReadScope): boolean => {
    const node = index.nodes[at]!;
    switch (scope) {
      case 'own':
        if (node.type === 'list_operator') return selector[1] === 'item';
        return scopeOutputsOf(node).some((output) => output.name === selector[1]);
      case 'body':
        return inBody(at, selector);
      case 'upstream_or_body':
        return inBody(at, selector) || offered(at, selector);
      case 'upstream':
        return offered(at, selector);
    }
  };

  return { index, canRead, isUpstream };
}

const titleOf = (node: WorkflowNode) => node.title || node.id;

/**
 * Exactly what a node may read, for the editor's variable picker: the values of the iterations and
 * loops around it first (innermost first), then upstream outputs in document order, then `sys`
 * and `env`. An unknown node id gets only `sys` and `env`.
 */
export function offeredVariables(graph: WorkflowGraph, nodeId: string): OfferedVariable[] {
  const index = buildIndex(graph);
  const reader = createScopeReader(index);
  const at = index.position.get(nodeId);
  const offered: OfferedVariable[] = [];
  const add = (node: WorkflowNode, outputs: NodeOutput[]) => {
    for (const output of outputs) {
      offered.push({ node_id: node.id, node_title: titleOf(node), node_type: node.type, ...output });
    }
  };
  if (at !== undefined) {
    for (const outer of enclosingOf(index, at)) add(index.nodes[outer]!, scopeOutputsOf(index.nodes[outer]!));
    for (let from = 0; from < index.nodes.length; from++) {
      if (from !== at && reader.isUpstream(at, from)) add(index.nodes[from]!, outputsOf(index.nodes[from]!));
    }
  }
  for (const output of SYSTEM_OUTPUTS) {
    offered.push({ node_id: 'sys', node_title: 'sys', node_type: 'sys', ...output });
  }
  for (const variable of graph.environment) {
    const type = variable.type === 'number' ? 'number' : 'string';
    offered.push({ node_id: 'env', node_title: 'env', node_type: 'env', name: variable.name, type });
  }
  return offered;
}
