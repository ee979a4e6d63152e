import type { WorkflowGraph, WorkflowNode } from '@athena/contract';
import { containerSize, NODE_HEIGHT, NODE_WIDTH } from './editor/graph-flow.ts';
import { isContainer, KIND_INFO, sourceHandlesOf } from './editor/node-kinds.ts';

// Pure geometry of a template's graph: the cards' small drawing, and where the preview opens.

export interface Extent {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ThumbBox extends Extent {
  id: string;
  color: string;
  container: boolean;
}

export interface Thumb {
  /** Containers first, so the nodes inside them are drawn over them. */
  boxes: ThumbBox[];
  /** Curves from a source's exit (a container's body start) to a target's left side. */
  paths: Array<{ id: string; d: string }>;
  /** Everything drawn, with a margin. */
  extent: Extent;
  viewBox: string;
}

const PAD = 40;
/** The card's header, where a single exit and the entry sit (as on the canvas). */
const HEADER_MID = 19;
/** A card with several exits draws one row per exit under its header (graph-flow.ts declares the same). */
const BRANCH_ROW = 24;

const isSingle = (handles: string[]) => handles.length === 1 && handles[0] === 'out';

/** Where an edge leaves its source, relative to the source's box. */
function exitOf(node: WorkflowNode, box: ThumbBox, handle: string) {
  if (handle === 'body') return { x: box.x + 90, y: box.y + box.height / 2 };
  const handles = sourceHandlesOf(node);
  const row = isSingle(handles) ? -1 : handles.indexOf(handle);
  return { x: box.x + box.width, y: row < 0 ? box.y + HEADER_MID : box.y + NODE_HEIGHT + (row + 0.5) * BRANCH_ROW };
}

/**
 * A template's graph as boxes and curves in one coordinate space, for the cards' small drawing
 * (plain SVG, so the templates page loads no React Flow). A body node's position is relative to
 * its container; a missing parent or a cycle of parents leaves a node where it says it is.
 */
export function thumbnailOf(graph: Pick<WorkflowGraph, 'nodes' | 'edges'>): Thumb {
  const byId = new Map(graph.nodes.map((node) => [node.id, node]));
  const children = new Map<string, WorkflowNode[]>();
  for (const node of graph.nodes) {
    if (node.parent_id && byId.has(node.parent_id)) {
      children.set(node.parent_id, [...(children.get(node.parent_id) ?? []), node]);
    }
  }
  const origin = (node: WorkflowNode, depth = 0): { x: number; y: number } => {
    const parent = node.parent_id ? byId.get(node.parent_id) : undefined;
    if (!parent || !isContainer(parent.type) || depth > 16) return node.position;
    const at = origin(parent, depth + 1);
    return { x: at.x + node.position.x, y: at.y + node.position.y };
  };
  const sizeOf = (node: WorkflowNode) => {
    if (isContainer(node.type)) return containerSize(children.get(node.id) ?? []);
    const handles = sourceHandlesOf(node);
    return { width: NODE_WIDTH, height: NODE_HEIGHT + (isSingle(handles) ? 0 : handles.length * BRANCH_ROW) };
  };
  const boxes = graph.nodes
    .map((node): ThumbBox => {
      const container = isContainer(node.type);
      return { id: node.id, ...origin(node), ...sizeOf(node), color: KIND_INFO[node.type].color, container };
    })
    .sort((a, b) => Number(b.container) - Number(a.container));

  const boxOf = new Map(boxes.map((box) => [box.id, box]));
  const paths: Thumb['paths'] = [];
  for (const edge of graph.edges) {
    const source = byId.get(edge.source);
    const from = boxOf.get(edge.source);
    const to = boxOf.get(edge.target);
    if (!source || !from || !to) continue;
    const { x: x1, y: y1 } = exitOf(source, from, edge.source_handle);
    const x2 = to.x;
    const y2 = to.y + HEADER_MID;
    const bend = Math.max(40, Math.abs(x2 - x1) / 2);
    paths.push({ id: edge.id, d: `M${x1},${y1} C${x1 + bend},${y1} ${x2 - bend},${y2} ${x2},${y2}` });
  }

  // An empty graph still gets a card-sized blank drawing rather than an infinite view box.
  const drawn = boxes.length > 0 ? boxes : [{ x: 0, y: 0, width: NODE_WIDTH, height: NODE_HEIGHT }];
  const left = Math.min(...drawn.map((box) => box.x)) - PAD;
  const top = Math.min(...drawn.map((box) => box.y)) - PAD;
  const right = Math.max(...drawn.map((box) => box.x + box.width)) + PAD;
  const bottom = Math.max(...drawn.map((box) => box.y + box.height)) + PAD;
  const extent = { x: left, y: top, width: right - left, height: bottom - top };
  return { boxes, paths, extent, viewBox: `${extent.x} ${extent.y} ${extent.width} ${extent.height}` };
}

/**
 * Where the preview opens: the whole graph when it fits at `minZoom` or more (centred, never
 * enlarged past 1:1); otherwise at `minZoom`, where the titles can still be read, from its top
 * left, where a flow starts, with the rest a pan away.
 */
export function openingViewport(extent: Extent, width: number, height: number, minZoom: number) {
  const fit = Math.min(width / extent.width, height / extent.height, 1);
  const zoom = Math.max(fit, minZoom);
  const place = (room: number, start: number, size: number) =>
    size * zoom <= room ? (room - size * zoom) / 2 - start * zoom : -start * zoom;
  return { x: place(width, extent.x, extent.width), y: place(height, extent.y, extent.height), zoom };
}
