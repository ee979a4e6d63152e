import type { ElkNode } from 'elkjs/lib/elk-api.js';
import { type FlowEdge, type FlowNode, NODE_HEIGHT, NODE_WIDTH } from './graph-flow.ts';

// Auto-layout: layered, left to right. Each container lays out its own body, so a body never
// leaves its iteration or loop; the edges from a container's `body` handle are left to ELK's
// padding (the body starts at the container's left edge anyway).

const LAYERED = {
  'elk.algorithm': 'layered',
  'elk.direction': 'RIGHT',
  'elk.layered.spacing.nodeNodeBetweenLayers': '80',
  'elk.spacing.nodeNode': '40',
  'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
};

const sizeOf = (node: FlowNode) => ({
  width: node.measured?.width ?? node.width ?? NODE_WIDTH,
  height: node.measured?.height ?? node.height ?? NODE_HEIGHT,
});

/** ELK's input for the canvas: containers hold their children and the edges among them. */
export function toElkGraph(nodes: readonly FlowNode[], edges: readonly FlowEdge[]): ElkNode {
  const root: ElkNode = { id: '__root', layoutOptions: LAYERED, children: [], edges: [] };
  const elkNodes = new Map<string, ElkNode>();
  for (const node of nodes) {
    const container = node.type === 'container';
    elkNodes.set(node.id, {
      id: node.id,
      ...(container
        ? {
            children: [],
            edges: [],
            layoutOptions: { ...LAYERED, 'elk.padding': '[top=64,left=40,bottom=40,right=40]' },
          }
        : sizeOf(node)),
    });
  }
  const parentOf = new Map(nodes.map((node) => [node.id, node.parentId]));
  for (const node of nodes) {
    const parent = node.parentId ? elkNodes.get(node.parentId) : root;
    (parent ?? root).children?.push(elkNodes.get(node.id) as ElkNode);
  }
  for (const edge of edges) {
    if (edge.sourceHandle === 'body') continue;
    const scope = parentOf.get(edge.source);
    if (scope !== parentOf.get(edge.target)) continue;
    const owner = scope ? elkNodes.get(scope) : root;
    owner?.edges?.push({ id: edge.id, sources: [edge.source], targets: [edge.target] });
  }
  return root;
}

export interface Placement {
  position: { x: number; y: number };
  size?: { width: number; height: number };
}

/** Positions (relative to each node's parent, as React Flow keeps them) and container sizes. */
export function placementsOf(laid: ElkNode): Map<string, Placement> {
  const out = new Map<string, Placement>();
  const walk = (node: ElkNode) => {
    for (const child of node.children ?? []) {
      out.set(child.id, {
        position: { x: Math.round(child.x ?? 0), y: Math.round(child.y ?? 0) },
        ...(child.children ? { size: { width: child.width ?? 0, height: child.height ?? 0 } } : {}),
      });
      walk(child);
    }
  };
  walk(laid);
  return out;
}
