import { workflowGraphSchema } from '@athena/contract';
import ELK from 'elkjs/lib/elk.bundled.js';
import { describe, expect, it } from 'vitest';
import { graphToFlow } from './graph-flow.ts';
import { placementsOf, toElkGraph } from './layout.ts';

describe('auto-layout', () => {
  it('lays a chain out left to right and keeps a body inside its container', async () => {
    const { nodes, edges } = graphToFlow(
      workflowGraphSchema.parse({
        nodes: [
          { id: 'end', type: 'end', data: {} },
          { id: 'loop', type: 'loop', data: {} },
          { id: 'start', type: 'start', data: {} },
          { id: 'b1', type: 'answer', parent_id: 'loop', data: { text: '' } },
          { id: 'b2', type: 'answer', parent_id: 'loop', data: { text: '' } },
        ],
        edges: [
          { id: 'e1', source: 'start', target: 'loop' },
          { id: 'e2', source: 'loop', target: 'end' },
          { id: 'e3', source: 'loop', source_handle: 'body', target: 'b1' },
          { id: 'e4', source: 'b1', target: 'b2' },
        ],
      }),
    );
    const placed = placementsOf(await new ELK().layout(toElkGraph(nodes, edges)));
    const x = (id: string) => placed.get(id)?.position.x ?? Number.NaN;
    expect(x('start')).toBeLessThan(x('loop'));
    expect(x('loop')).toBeLessThan(x('end'));
    expect(x('b1')).toBeLessThan(x('b2'));
    expect(x('b1')).toBeGreaterThanOrEqual(40);
    const loop = placed.get('loop');
    expect(loop?.size?.width).toBeGreaterThan(x('b2'));
    expect(placed.get('b1')?.size).toBeUndefined();
  });
});
