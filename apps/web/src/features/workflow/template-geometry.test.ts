import { type WorkflowGraph, workflowNodeSchema } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { NODE_HEIGHT, NODE_WIDTH } from './editor/graph-flow.ts';
import { createNode } from './editor/node-kinds.ts';
import { openingViewport, thumbnailOf } from './template-geometry.ts';

const at = (x: number, y: number) => ({ x, y });
const graph = (nodes: WorkflowGraph['nodes'], edges: WorkflowGraph['edges'] = []) => ({ nodes, edges });

describe('template geometry', () => {
  it('places a body node inside its loop, draws the loop first, and frames everything', () => {
    const start = createNode('start', { id: 'start', title: 'Start', position: at(0, 0) });
    const loop = createNode('loop', { id: 'loop', title: 'Loop', position: at(320, 0) });
    const body = createNode('llm', { id: 'body', title: 'Body', position: at(100, 80), parentId: 'loop' });
    const thumb = thumbnailOf(
      graph(
        [start, body, loop],
        [
          { id: 'e1', source: 'start', source_handle: 'out', target: 'loop' },
          { id: 'e2', source: 'loop', source_handle: 'body', target: 'body' },
        ],
      ),
    );
    expect(thumb.boxes.map((box) => box.id)).toEqual(['loop', 'start', 'body']);
    const inner = thumb.boxes.find((box) => box.id === 'body');
    expect(inner).toMatchObject({ x: 420, y: 80, width: NODE_WIDTH, height: NODE_HEIGHT, container: false });
    const outer = thumb.boxes.find((box) => box.id === 'loop');
    expect(outer?.container).toBe(true);
    // The loop grows to hold its body node with room to spare.
    expect((outer?.x ?? 0) + (outer?.width ?? 0)).toBeGreaterThan(420 + NODE_WIDTH);
    expect(thumb.paths.map((path) => path.id)).toEqual(['e1', 'e2']);
    expect(thumb.paths[0]?.d.startsWith(`M${NODE_WIDTH},19 `)).toBe(true);
    const [left, top, width, height] = thumb.viewBox.split(' ').map(Number);
    expect(left).toBeLessThan(0);
    expect(top).toBeLessThan(0);
    expect((left ?? 0) + (width ?? 0)).toBeGreaterThan((outer?.x ?? 0) + (outer?.width ?? 0));
    expect(height).toBeGreaterThan(outer?.height ?? 0);
  });

  it('draws a card with several exits taller, each edge leaving from its own row', () => {
    const classify = createNode('classifier', { id: 'classify', title: 'Classify', position: at(0, 0) });
    const answer = createNode('answer', { id: 'answer', title: 'Answer', position: at(320, 0) });
    const thumb = thumbnailOf(
      graph([classify, answer], [{ id: 'e', source: 'classify', source_handle: 'class_2', target: 'answer' }]),
    );
    expect(thumb.boxes[0]?.height).toBe(NODE_HEIGHT + 2 * 24);
    expect(thumb.paths[0]?.d.startsWith(`M${NODE_WIDTH},${NODE_HEIGHT + 1.5 * 24} `)).toBe(true);
  });

  it('keeps a node whose parent is missing where it says, skips dangling edges, and frames an empty graph', () => {
    const orphan = workflowNodeSchema.parse({
      ...createNode('llm', { id: 'orphan', title: 'Orphan', position: at(50, 60) }),
      parent_id: 'gone',
    });
    const thumb = thumbnailOf(graph([orphan], [{ id: 'e', source: 'gone', source_handle: 'out', target: 'orphan' }]));
    expect(thumb.boxes[0]).toMatchObject({ x: 50, y: 60 });
    expect(thumb.paths).toEqual([]);
    expect(thumbnailOf(graph([])).viewBox).toBe(`-40 -40 ${NODE_WIDTH + 80} ${NODE_HEIGHT + 80}`);
  });

  it('opens the preview on the whole graph when it fits at a readable zoom, else readable from the top left', () => {
    const small = { x: -40, y: -40, width: 960, height: 200 };
    // Fits at 1:1: centred, not enlarged.
    expect(openingViewport(small, 1000, 400, 0.75)).toEqual({ x: 60, y: 140, zoom: 1 });
    // Fits when shrunk to 0.8 (≥ 0.75): shrunk and centred across, the height left over split.
    const fitted = openingViewport(small, 768, 400, 0.75);
    expect(fitted.zoom).toBeCloseTo(0.8);
    expect(fitted.x).toBeCloseTo(32);
    expect(fitted.y).toBeCloseTo(152);
    // Too wide for 0.75: at 0.75, its left edge at the frame's left, still centred down.
    const wide = openingViewport({ x: -40, y: -40, width: 2400, height: 200 }, 1000, 400, 0.75);
    expect(wide).toEqual({ x: 30, y: 155, zoom: 0.75 });
  });
});
