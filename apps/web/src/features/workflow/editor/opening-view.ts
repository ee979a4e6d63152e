import type { Viewport } from '@xyflow/react';
import type { FlowNode } from './graph-flow.ts';
import { NODE_HEIGHT, NODE_WIDTH } from './graph-flow.ts';

/**
 * The smallest zoom the editor opens at: a node title (13 px) stays over 10 px high. A graph too
 * wide to fit at it opens at its start node instead of shrunk to unreadable cards.
 */
export const READABLE_ZOOM = 0.8;
/** Up to this many nodes, the canvas opens fitted to all of them (when that stays readable). */
export const FIT_ON_OPEN_MAX = 150;
const PAD = 40;

interface Size {
  width: number;
  height: number;
}

const sizeOf = (node: FlowNode) => ({
  width: node.width ?? node.initialWidth ?? NODE_WIDTH,
  height: node.height ?? node.initialHeight ?? NODE_HEIGHT,
});

/**
 * Where the canvas opens: the whole graph centred at up to 100 % when it fits at a readable zoom;
 * otherwise at the readable zoom with the start node at the left edge (the flow reads from there),
 * centred vertically on the graph, or on the start node when the graph is taller than the view. A
 * large graph opens at its start node at full size: fitted, every node would be drawn at once.
 */
export function openingView(nodes: readonly FlowNode[], view: Size): Viewport {
  const top = nodes.filter((node) => !node.parentId);
  const start = top.find((node) => node.data.node.type === 'start') ?? top[0];
  if (!start) return { x: 0, y: 0, zoom: 1 };
  if (nodes.length > FIT_ON_OPEN_MAX) return { x: 80 - start.position.x, y: 240 - start.position.y, zoom: 1 };
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (const node of top) {
    const { width, height } = sizeOf(node);
    minX = Math.min(minX, node.position.x);
    minY = Math.min(minY, node.position.y);
    maxX = Math.max(maxX, node.position.x + width);
    maxY = Math.max(maxY, node.position.y + height);
  }
  const [width, height] = [maxX - minX, maxY - minY];
  const fit = Math.min((view.width - 2 * PAD) / width, (view.height - 2 * PAD) / height, 1);
  if (fit >= READABLE_ZOOM) {
    return {
      x: (view.width - width * fit) / 2 - minX * fit,
      y: (view.height - height * fit) / 2 - minY * fit,
      zoom: fit,
    };
  }
  const zoom = READABLE_ZOOM;
  const y =
    height * zoom <= view.height - 2 * PAD
      ? (view.height - height * zoom) / 2 - minY * zoom
      : view.height / 2 - (start.position.y + sizeOf(start).height / 2) * zoom;
  return { x: PAD - start.position.x * zoom, y, zoom };
}
