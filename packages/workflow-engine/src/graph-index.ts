import type { WorkflowEdge, WorkflowGraph, WorkflowNode } from '@athena/contract';

// One pass over a graph that the static checks share: nodes by id, the edges inside each scope,
// and for every node the set of nodes upstream of it in its own scope, as a bitset. Bitsets keep
// "may node B read node A?" constant-time, so validating 2 000 nodes stays in milliseconds even for
// a long chain where every node reads the start node.

export interface GraphIndex {
  graph: WorkflowGraph;
  /** The first node of each id, in document order (a duplicate id is a validation problem). */
  nodes: WorkflowNode[];
  position: Map<string, number>;
  /** Predecessors and successors along the valid edges inside one scope (the `body` edge excluded). */
  preds: number[][];
  succs: number[][];
  /** The enclosing iteration or loop of each node, or -1 at the top level (or when it is missing). */
  parent: Int32Array;
  /** Nodes upstream of each node within its scope, one bit per node position. */
  ancestors: Uint32Array[];
  /** Positions in a topological order; nodes on or after a cycle are missing from it. */
  order: number[];
}

export function isScopeNode(node: WorkflowNode | undefined): boolean {
  return node?.type === 'iteration' || node?.type === 'loop';
}

export function hasBit(bits: Uint32Array, index: number): boolean {
  return (bits[index >>> 5]! & (1 << (index & 31))) !== 0;
}

function setBit(bits: Uint32Array, index: number): void {
  bits[index >>> 5]! |= 1 << (index & 31);
}

function handleAllowed(node: WorkflowNode, handle: string): boolean {
  if (handle === 'fail') return node.errors.on_error === 'fail_branch';
  switch (node.type) {
    case 'end':
      return false;
    case 'if_else':
      return handle === 'else' || node.data.cases.some((item) => item.id === handle);
    case 'classifier':
      return node.data.classes.some((item) => item.id === handle);
    default:
      return handle === 'out';
  }
}

/** Whether an edge joins existing nodes, through a handle the source has, inside one scope (or into a body). */
export function edgeValid(index: Pick<GraphIndex, 'nodes' | 'position'>, edge: WorkflowEdge): boolean {
  const source = index.nodes[index.position.get(edge.source) ?? -1];
  const target = index.nodes[index.position.get(edge.target) ?? -1];
  if (!source || !target || target.type === 'start') return false;
  if (edge.source_handle === 'body') return isScopeNode(source) && target.parent_id === source.id;
  return source.parent_id === target.parent_id && handleAllowed(source, edge.source_handle);
}

export function buildIndex(graph: WorkflowGraph): GraphIndex {
  const nodes: WorkflowNode[] = [];
  const position = new Map<string, number>();
  for (const node of graph.nodes) {
    if (position.has(node.id)) continue;
    position.set(node.id, nodes.length);
    nodes.push(node);
  }
  const count = nodes.length;
  const parent = new Int32Array(count).fill(-1);
  for (let i = 0; i < count; i++) {
    const parentId = nodes[i]!.parent_id;
    const at = parentId === null ? undefined : position.get(parentId);
    if (at !== undefined && at !== i && isScopeNode(nodes[at])) parent[i] = at;
  }
  const preds: number[][] = Array.from({ length: count }, () => []);
  const succs: number[][] = Array.from({ length: count }, () => []);
  for (const edge of graph.edges) {
    if (edge.source_handle === 'body' || !edgeValid({ nodes, position }, edge)) continue;
    const from = position.get(edge.source)!;
    const to = position.get(edge.target)!;
    preds[to]!.push(from);
    succs[from]!.push(to);
  }

  const words = (count + 31) >>> 5;
  const ancestors: Uint32Array[] = new Array(count);
  const indegree = new Int32Array(count);
  for (let i = 0; i < count; i++) indegree[i] = preds[i]!.length;
  const order: number[] = [];
  for (let i = 0; i < count; i++) if (indegree[i] === 0) order.push(i);
  for (let head = 0; head < order.length; head++) {
    const at = order[head]!;
    const bits = new Uint32Array(words);
    for (const p of preds[at]!) {
      const above = ancestors[p]!;
      for (let w = 0; w < words; w++) bits[w]! |= above[w]!;
      setBit(bits, p);
    }
    ancestors[at] = bits;
    for (const next of succs[at]!) if (--indegree[next]! === 0) order.push(next);
  }
  // Nodes on or after a cycle: walk back by hand. Rare, and such a graph is refused anyway.
  if (order.length < count) {
    for (let i = 0; i < count; i++) {
      if (ancestors[i]) continue;
      const bits = new Uint32Array(words);
      const stack = [...preds[i]!];
      while (stack.length > 0) {
        const p = stack.pop()!;
        if (hasBit(bits, p)) continue;
        setBit(bits, p);
        stack.push(...preds[p]!);
      }
      ancestors[i] = bits;
    }
  }
  return { graph, nodes, position, preds, succs, parent, ancestors, order };
}

/** The iterations and loops around a node, innermost first. */
export function enclosingOf(index: GraphIndex, at: number): number[] {
  const chain: number[] = [];
  for (let p = index.parent[at]!; p !== -1 && !chain.includes(p) && p !== at; p = index.parent[p]!) chain.push(p);
  return chain;
}
