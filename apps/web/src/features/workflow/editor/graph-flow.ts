import type { WorkflowEdge, WorkflowGraph, WorkflowNode } from '@athena/contract';
import type { Edge, Node } from '@xyflow/react';
import { isContainer, KIND_INFO, type NodeFamily, sourceHandlesOf } from './node-kinds.ts';

// The document (WorkflowGraph) and React Flow's nodes and edges, both ways. A node's document
// stays whole in `data.node`; React Flow owns position, selection and size. A body node's position
// is relative to its iteration or loop, as React Flow draws children (and as Dify stores them).

export type FlowNodeData = { node: WorkflowNode };
export type FlowNode = Node<FlowNodeData, NodeFamily>;
export type FlowEdge = Edge<Record<string, never>, 'deletable'>;

export const NODE_WIDTH = 240;
export const NODE_HEIGHT = 72;
/** Room around a container's children: a header above, a margin elsewhere. */
const CONTAINER_PAD = { top: 64, side: 40, bottom: 40 };
const CONTAINER_MIN = { width: 480, height: 220 };

export const edgeId = (edge: Pick<WorkflowEdge, 'source' | 'source_handle' | 'target'>) =>
  `${edge.source}:${edge.source_handle}->${edge.target}`;

/** The size a container needs to hold its children (relative positions). */
export function containerSize(children: ReadonlyArray<{ position: { x: number; y: number } }>) {
  let width = CONTAINER_MIN.width;
  let height = CONTAINER_MIN.height;
  for (const child of children) {
    width = Math.max(width, child.position.x + NODE_WIDTH + CONTAINER_PAD.side);
    height = Math.max(height, child.position.y + NODE_HEIGHT + CONTAINER_PAD.bottom);
  }
  return { width, height };
}

export function toFlowNode(node: WorkflowNode, size?: { width: number; height: number }): FlowNode {
  const flow: FlowNode = {
    id: node.id,
    type: KIND_INFO[node.type].family,
    position: node.position,
    data: { node },
  };
  if (node.parent_id) {
    flow.parentId = node.parent_id;
    flow.extent = 'parent';
    flow.expandParent = true;
  }
  if (size) {
    flow.style = { width: size.width, height: size.height };
    flow.width = size.width;
    flow.height = size.height;
  } else {
    // A size before measuring: nodes out of view are never drawn (so never measured), and fitting
    // the view and choosing what is in view must still know where they are.
    const handles = sourceHandlesOf(node);
    const rows = handles.length === 1 && handles[0] === 'out' ? 0 : handles.length;
    flow.initialWidth = NODE_WIDTH;
    flow.initialHeight = NODE_HEIGHT + rows * 24;
  }
  return flow;
}

export function toFlowEdge(edge: WorkflowEdge): FlowEdge {
  return {
    id: edge.id,
    source: edge.source,
    sourceHandle: edge.source_handle,
    target: edge.target,
    targetHandle: 'in',
    type: 'deletable',
  };
}

/**
 * React Flow wants a parent before its children; containers are sized to hold their children.
 * A node whose parent is missing or not a container is drawn at the top level (validation names it).
 */
export function graphToFlow(graph: Pick<WorkflowGraph, 'nodes' | 'edges'>): { nodes: FlowNode[]; edges: FlowEdge[] } {
  const byId = new Map(graph.nodes.map((node) => [node.id, node]));
  const children = new Map<string, WorkflowNode[]>();
  for (const node of graph.nodes) {
    const parent = node.parent_id ? byId.get(node.parent_id) : undefined;
    if (parent && isContainer(parent.type)) {
      const list = children.get(parent.id) ?? [];
      list.push(node);
      children.set(parent.id, list);
    }
  }
  const nodes: FlowNode[] = [];
  const placed = new Set<string>();
  const place = (node: WorkflowNode, attached: boolean) => {
    if (placed.has(node.id)) return;
    placed.add(node.id);
    const kids = children.get(node.id) ?? [];
    const drawn = attached || node.parent_id === null ? node : { ...node, parent_id: null };
    nodes.push(toFlowNode(drawn, isContainer(node.type) ? containerSize(kids) : undefined));
    for (const kid of kids) place(kid, true);
  };
  for (const node of graph.nodes) {
    const parent = node.parent_id ? byId.get(node.parent_id) : undefined;
    if (!parent || !isContainer(parent.type)) place(node, false);
  }
  // Children whose containers nest in a cycle of parents never got placed; draw them at the top.
  for (const node of graph.nodes) place(node, false);
  return { nodes, edges: graph.edges.map(toFlowEdge) };
}

/** The document's nodes and edges as the canvas holds them now. */
export function flowToGraph(
  nodes: readonly FlowNode[],
  edges: readonly FlowEdge[],
): Pick<WorkflowGraph, 'nodes' | 'edges'> {
  return {
    nodes: nodes.map((flow) => {
      const node = flow.data.node;
      const parent_id = flow.parentId ?? null;
      const position = { x: Math.round(flow.position.x), y: Math.round(flow.position.y) };
      return node.parent_id === parent_id && node.position.x === position.x && node.position.y === position.y
        ? node
        : { ...node, parent_id, position };
    }),
    edges: edges.map((edge) => ({
      id: edge.id,
      source: edge.source,
      source_handle: edge.sourceHandle ?? 'out',
      target: edge.target,
    })),
  };
}
