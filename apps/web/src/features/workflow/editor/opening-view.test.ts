import type { WorkflowNode } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import type { FlowNode } from './graph-flow.ts';
import { FIT_ON_OPEN_MAX, openingView, READABLE_ZOOM } from './opening-view.ts';

const node = (id: string, type: string, x: number, y = 0): FlowNode => ({
  id,
  type: 'step',
  position: { x, y },
  initialWidth: 240,
  initialHeight: 72,
  data: { node: { id, type } as unknown as WorkflowNode },
});
const view = { width: 1200, height: 800 };

describe('where the workflow canvas opens', () => {
  it('fits a small graph, never past 100 %', () => {
    const opened = openingView([node('start', 'start', 0), node('end', 'end', 320)], view);
    expect(opened.zoom).toBe(1);
    // Centred: 560 px of graph in a 1200 px view.
    expect(opened.x).toBe(320);
  });

  it('opens a wide graph at a readable zoom with the start node at the left, not shrunk to dots', () => {
    const chain = Array.from({ length: 12 }, (_, i) => node(`n${i}`, i === 0 ? 'start' : 'llm', 2000 + i * 320, 100));
    const opened = openingView(chain, view);
    expect(opened.zoom).toBe(READABLE_ZOOM);
    expect(opened.x + 2000 * opened.zoom).toBe(40);
    // Vertically centred on the graph.
    expect(opened.y + (100 + 36) * opened.zoom).toBeCloseTo(400);
  });

  it('opens a large graph at its start node at full size', () => {
    const many = Array.from({ length: FIT_ON_OPEN_MAX + 1 }, (_, i) =>
      node(`n${i}`, i === 3 ? 'start' : 'llm', i * 10, 50),
    );
    expect(openingView(many, view)).toEqual({ x: 80 - 30, y: 240 - 50, zoom: 1 });
  });
});
