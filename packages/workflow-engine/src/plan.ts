import type { WorkflowEdge, WorkflowGraph, WorkflowNode } from '@athena/contract';
import { buildIndex, edgeValid } from './graph-index.ts';

// What the scheduler needs from a graph, built once per run: each scope's nodes and, per node,
// its outgoing edges (with their handles) and how many edges come in.

export interface Plan {
  nodes: Map<string, WorkflowNode>;
  /** The nodes of each scope: the top level (null) and each iteration or loop body. */
  members: Map<string | null, WorkflowNode[]>;
  outgoing: Map<string, WorkflowEdge[]>;
  incoming: Map<string, number>;
}

export function planOf(graph: WorkflowGraph): Plan {
  const index = buildIndex(graph);
  const nodes = new Map<string, WorkflowNode>();
  const members = new Map<string | null, WorkflowNode[]>();
  for (const node of index.nodes) {
    nodes.set(node.id, node);
    const scope = node.parent_id;
    let list = members.get(scope);
    if (!list) {
      list = [];
      members.set(scope, list);
    }
    list.push(node);
  }
  const outgoing = new Map<string, WorkflowEdge[]>();
  const incoming = new Map<string, number>();
  for (const edge of graph.edges) {
    if (edge.source_handle === 'body' || !edgeValid(index, edge)) continue;
    let list = outgoing.get(edge.source);
    if (!list) {
      list = [];
      outgoing.set(edge.source, list);
    }
    list.push(edge);
    incoming.set(edge.target, (incoming.get(edge.target) ?? 0) + 1);
  }
  return { nodes, members, outgoing, incoming };
}
