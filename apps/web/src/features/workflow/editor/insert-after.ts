import { NODE_HEIGHT, NODE_WIDTH } from './graph-flow.ts';

/** The horizontal room between a node and the one added after it. */
export const ADD_GAP = 80;
const ROW_GAP = 40;

interface PlanNode {
  id: string;
  position: { x: number; y: number };
  parentId?: string;
  width?: number;
  measured?: { width?: number; height?: number };
  initialWidth?: number;
  initialHeight?: number;
}
interface PlanEdge {
  id: string;
  source: string;
  target: string;
  sourceHandle?: string | null;
}

export interface InsertPlan {
  position: { x: number; y: number };
  /** The selected node's only successor on that handle: the new node goes between the two. */
  next: { id: string; edgeId: string } | null;
  /** Nodes moved right to make room (by id, new position). */
  moved: Map<string, { x: number; y: number }>;
}

const widthOf = (node: PlanNode) => node.measured?.width ?? node.width ?? node.initialWidth ?? NODE_WIDTH;
const heightOf = (node: PlanNode) => node.measured?.height ?? node.initialHeight ?? NODE_HEIGHT;

/**
 * Where a node added after the selected one goes. When the selected node's handle leads to exactly
 * one node (start → end), the new node takes that node's place and is wired in between, and that
 * node with everything after it on the same level moves right to make room, as a person building a
 * chain expects (start → LLM → end). Otherwise (a free handle, or a fan-out) it goes to the right,
 * lower down where that spot is taken, so it never covers a node.
 */
export function planInsertAfter(
  nodes: readonly PlanNode[],
  edges: readonly PlanEdge[],
  selected: PlanNode,
  handle: string,
  canChain: boolean,
): InsertPlan {
  const level = nodes.filter((node) => (node.parentId ?? null) === (selected.parentId ?? null));
  const x = selected.position.x + widthOf(selected) + ADD_GAP;
  const out = edges.filter((edge) => edge.source === selected.id && (edge.sourceHandle ?? 'out') === handle);
  const nextNode = out.length === 1 ? level.find((node) => node.id === out[0].target) : undefined;
  if (canChain && nextNode) {
    const position = { x, y: selected.position.y };
    const shift = Math.max(0, x + NODE_WIDTH + ADD_GAP - nextNode.position.x);
    const moved = new Map<string, { x: number; y: number }>();
    if (shift > 0) {
      const onLevel = new Set(level.map((node) => node.id));
      const after = downstream(edges, nextNode.id, onLevel);
      for (const node of level) {
        if (after.has(node.id)) moved.set(node.id, { x: node.position.x + shift, y: node.position.y });
      }
    }
    return { position, next: { id: nextNode.id, edgeId: out[0].id }, moved };
  }
  let y = selected.position.y;
  const taken = (top: number) =>
    level.some(
      (node) =>
        node.position.x < x + NODE_WIDTH &&
        node.position.x + widthOf(node) > x &&
        node.position.y < top + NODE_HEIGHT &&
        node.position.y + heightOf(node) > top,
    );
  while (taken(y)) y += NODE_HEIGHT + ROW_GAP;
  return { position: { x, y }, next: null, moved: new Map() };
}

/** A node and every node reachable from it along edges, staying on one level. */
function downstream(edges: readonly PlanEdge[], from: string, onLevel: ReadonlySet<string>): Set<string> {
  const seen = new Set([from]);
  const stack = [from];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    for (const edge of edges) {
      if (edge.source === id && onLevel.has(edge.target) && !seen.has(edge.target)) {
        seen.add(edge.target);
        stack.push(edge.target);
      }
    }
  }
  return seen;
}
