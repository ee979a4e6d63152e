import { type WorkflowGraph, workflowGraphSchema } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { flowToGraph, graphToFlow } from './graph-flow.ts';

const graph: WorkflowGraph = workflowGraphSchema.parse({
  nodes: [
    { id: 'child', type: 'answer', parent_id: 'loop', position: { x: 40, y: 80 }, data: { text: 'x' } },
    { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: {} },
    { id: 'loop', type: 'loop', position: { x: 300, y: 0 }, data: {} },
    { id: 'orphan', type: 'answer', parent_id: 'missing', position: { x: 5, y: 5 }, data: { text: '' } },
    { id: 'end', type: 'end', position: { x: 900, y: 0 }, data: {} },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'loop' },
    { id: 'e2', source: 'loop', source_handle: 'body', target: 'child' },
    { id: 'e3', source: 'loop', target: 'end' },
  ],
});

describe('graph ↔ React Flow', () => {
  it('puts containers before their children, sized to hold them, with children kept inside', () => {
    const { nodes, edges } = graphToFlow(graph);
    const order = nodes.map((node) => node.id);
    expect(order.indexOf('loop')).toBeLessThan(order.indexOf('child'));
    const loop = nodes.find((node) => node.id === 'loop');
    expect(loop?.type).toBe('container');
    expect(loop?.width).toBeGreaterThanOrEqual(40 + 240);
    const child = nodes.find((node) => node.id === 'child');
    expect(child).toMatchObject({ parentId: 'loop', extent: 'parent', position: { x: 40, y: 80 } });
    expect(nodes.find((node) => node.id === 'orphan')?.parentId).toBeUndefined();
    expect(nodes.find((node) => node.id === 'start')?.type).toBe('entry');
    expect(nodes.find((node) => node.id === 'end')?.type).toBe('exit');
    expect(edges.find((edge) => edge.id === 'e2')).toMatchObject({ sourceHandle: 'body', targetHandle: 'in' });
  });

  it('gives every node a size before it is measured, so undrawn nodes count when fitting the view', () => {
    const { nodes } = graphToFlow(graph);
    for (const node of nodes) {
      const width = node.type === 'container' ? node.width : node.initialWidth;
      const height = node.type === 'container' ? node.height : node.initialHeight;
      expect(width, node.id).toBeGreaterThan(0);
      expect(height, node.id).toBeGreaterThan(0);
    }
  });

  it('round-trips the document, taking positions and parents from the canvas', () => {
    const { nodes, edges } = graphToFlow(graph);
    const back = flowToGraph(nodes, edges);
    const byId = new Map(back.nodes.map((node) => [node.id, node]));
    for (const node of graph.nodes) {
      if (node.id === 'orphan') continue;
      expect(byId.get(node.id)).toEqual(node);
    }
    expect(byId.get('orphan')?.parent_id).toBeNull();
    expect(back.edges).toEqual(graph.edges);

    const moved = nodes.map((node) => (node.id === 'end' ? { ...node, position: { x: 1000.4, y: 9.6 } } : node));
    expect(flowToGraph(moved, edges).nodes.find((node) => node.id === 'end')?.position).toEqual({ x: 1000, y: 10 });
    // Unchanged nodes are the same objects: a snapshot costs nothing for them.
    expect(byId.get('start')).toBe(graph.nodes[1]);
  });
});
