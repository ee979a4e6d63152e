import { workflowGraphSchema } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { serverOnlyProblems } from './server-problems.ts';

describe('server-only problems', () => {
  it('keeps what the server found beyond the engine, drops what the canvas checks itself', () => {
    const graph = workflowGraphSchema.parse({
      nodes: [
        { id: 'start', type: 'start', data: {} },
        { id: 'llm', type: 'llm', data: {} },
        { id: 'end', type: 'end', data: {} },
        { id: 'lost', type: 'answer', data: { text: 'x' } },
      ],
      edges: [
        { id: 'a', source: 'start', target: 'llm' },
        { id: 'b', source: 'llm', target: 'end' },
      ],
    });
    const unconnected = { code: 'WORKFLOW_NODE_UNCONNECTED', node_id: 'lost', params: { node: 'lost' } };
    const model = { code: 'WORKFLOW_MODEL_MISSING', node_id: 'llm', params: { node: 'llm' } };
    expect(serverOnlyProblems(graph, [unconnected, model])).toEqual([model]);
  });
});
