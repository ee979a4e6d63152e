import { describe, expect, it } from 'vitest';
import { runSingleNode } from './single-node.ts';
import { code, end, graphOf, llm, SYSTEM, start } from './test-graphs.ts';
import type { Executors } from './types.ts';

const graph = graphOf(
  [
    start('s', [
      { name: 'q', type: 'text' },
      { name: 'n', type: 'number' },
    ]),
    llm('l', 'Answer {{#s.q#}} for {{#sys.user_id#}}'),
    { id: 'tool', type: 'unsupported', data: { original_type: 'dify-tool' } },
    end('e'),
  ],
  [
    ['s', 'l'],
    ['l', 'e'],
  ],
);

describe('runSingleNode', () => {
  it('runs one node with hand-given values and answers its node_finished event', async () => {
    const executors: Executors = {
      llm: async ({ render, node }) => ({ outputs: { text: render(node.data.user_prompt) } }),
    };
    const finished = await runSingleNode({ graph, nodeId: 'l', values: { 's.q': 'why' }, system: SYSTEM, executors });
    expect(finished).toMatchObject({ node_id: 'l', status: 'succeeded', outputs: { text: 'Answer why for u1' } });
  });

  it('checks a start node against its inputs', async () => {
    const bad = await runSingleNode({
      graph,
      nodeId: 's',
      values: { 's.q': 'x', 's.n': 'ten' },
      system: SYSTEM,
      executors: {},
    });
    expect(bad).toMatchObject({ status: 'failed', error: { code: 'WORKFLOW_INPUT_INVALID', params: { name: 'n' } } });
    const good = await runSingleNode({
      graph,
      nodeId: 's',
      values: { 's.q': 'x', 's.n': '10' },
      system: SYSTEM,
      executors: {},
    });
    expect(good).toMatchObject({ status: 'succeeded', outputs: { q: 'x', n: 10 } });
  });

  it('fails an unsupported node, and an unknown one', async () => {
    const tool = await runSingleNode({ graph, nodeId: 'tool', values: {}, system: SYSTEM, executors: {} });
    expect(tool).toMatchObject({
      status: 'failed',
      error: { code: 'WORKFLOW_NODE_UNSUPPORTED', params: { type: 'dify-tool' } },
    });
    const ghost = await runSingleNode({ graph, nodeId: 'ghost', values: {}, system: SYSTEM, executors: {} });
    expect(ghost).toMatchObject({ status: 'failed', error: { code: 'WORKFLOW_NODE_FAILED' } });
  });

  it('stops on cancellation', async () => {
    const controller = new AbortController();
    const executors: Executors = { code: () => new Promise(() => {}) };
    const g = graphOf(
      [start('s'), code('c'), end('e')],
      [
        ['s', 'c'],
        ['c', 'e'],
      ],
    );
    const running = runSingleNode({
      graph: g,
      nodeId: 'c',
      values: {},
      system: SYSTEM,
      executors,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 10);
    expect(await running).toMatchObject({ status: 'failed', error: { code: 'WORKFLOW_RUN_CANCELLED' } });
  });
});
