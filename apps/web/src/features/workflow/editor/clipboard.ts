import type { WorkflowEdge, WorkflowGraph, WorkflowNode } from '@athena/contract';
import { edgeId } from './graph-flow.ts';
import { newNodeId } from './node-kinds.ts';

export interface Clip {
  nodes: WorkflowNode[];
  edges: WorkflowEdge[];
}

/**
 * The selected nodes, the bodies of selected containers, and the edges between them. A start node
 * is left out: a workflow has exactly one.
 */
export function copyNodes(graph: Pick<WorkflowGraph, 'nodes' | 'edges'>, selected: ReadonlySet<string>): Clip {
  const chosen = new Set<string>();
  for (const node of graph.nodes) if (selected.has(node.id) && node.type !== 'start') chosen.add(node.id);
  // Bodies nest; grow the set until no child of a chosen container is missing.
  for (let grew = true; grew; ) {
    grew = false;
    for (const node of graph.nodes) {
      if (!chosen.has(node.id) && node.parent_id && chosen.has(node.parent_id)) {
        chosen.add(node.id);
        grew = true;
      }
    }
  }
  return {
    nodes: graph.nodes.filter((node) => chosen.has(node.id)),
    edges: graph.edges.filter((edge) => chosen.has(edge.source) && chosen.has(edge.target)),
  };
}

const REFERENCE = /\{\{#([A-Za-z0-9_-]+)\./g;

/** Every selector (`[nodeId, output, …]`) and `{{#nodeId.output#}}` reference to a renamed node follows it. */
function remap(value: unknown, ids: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') {
    return value.replace(REFERENCE, (whole, id: string) => {
      const renamed = ids.get(id);
      return renamed ? `{{#${renamed}.` : whole;
    });
  }
  if (Array.isArray(value)) {
    const first = value[0];
    if (value.length >= 2 && value.every((item) => typeof item === 'string') && typeof first === 'string') {
      const renamed = ids.get(first);
      if (renamed) return [renamed, ...value.slice(1)];
    }
    return value.map((item) => remap(item, ids));
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, remap(item, ids)]));
  }
  return value;
}

/**
 * A clip as new nodes: fresh ids, references between the pasted nodes renamed with them, the
 * top-level ones shifted by `offset`. A node whose container was not copied lands in `parentId`
 * (the container the paste goes into, or the top level).
 */
export function pasteClip(
  clip: Clip,
  taken: ReadonlySet<string>,
  offset: { x: number; y: number },
  parentId: string | null = null,
): Clip {
  const used = new Set(taken);
  const ids = new Map<string, string>();
  for (const node of clip.nodes) {
    const id = newNodeId(node.type, used);
    used.add(id);
    ids.set(node.id, id);
  }
  const nodes = clip.nodes.map((node): WorkflowNode => {
    const inside = node.parent_id !== null && ids.has(node.parent_id);
    return {
      ...node,
      id: ids.get(node.id) as string,
      parent_id: inside ? (ids.get(node.parent_id as string) as string) : parentId,
      position: inside ? node.position : { x: node.position.x + offset.x, y: node.position.y + offset.y },
      data: remap(node.data, ids),
    } as WorkflowNode;
  });
  const edges = clip.edges.map((edge) => {
    const renamed = { ...edge, source: ids.get(edge.source) as string, target: ids.get(edge.target) as string };
    return { ...renamed, id: edgeId(renamed) };
  });
  return { nodes, edges };
}
