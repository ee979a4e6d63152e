import { WORKFLOW_LIMITS } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { code, delay, end, finishedOf, graphOf, runCollecting, start } from './test-graphs.ts';
import type { Executors } from './types.ts';

const iterationGraph = (data: Record<string, unknown> = {}) =>
  graphOf(
    [
      start('s', [{ name: 'items', type: 'json' }]),
      { id: 'it', type: 'iteration', data: { list: ['s', 'items'], output: ['double', 'result'], ...data } },
      {
        ...code('double', {
          data: {
            language: 'javascript',
            code: 'x',
            variables: [{ name: 'x', selector: ['it', 'item'] }],
            outputs: [{ name: 'result', type: 'number' }],
          },
        }),
        parent_id: 'it',
      },
      end('e', [{ name: 'all', selector: ['it', 'output'] }]),
    ],
    [
      ['s', 'it'],
      ['it', 'double', 'body'],
      ['it', 'e'],
    ],
  );

function counting(fail: (item: number) => boolean = () => false, ms = 10) {
  const state = { running: 0, most: 0, order: [] as number[] };
  const executors: Executors = {
    code: async ({ read, node }) => {
      const item = read(['it', 'item']) as number;
      const index = read(['it', 'index']) as number;
      state.running++;
      state.most = Math.max(state.most, state.running);
      await delay(ms);
      state.running--;
      state.order.push(index);
      if (fail(item)) throw new Error(`item ${item} failed in ${node.id}`);
      return { outputs: { result: item * 2 } };
    },
  };
  return { state, executors };
}

describe('iteration', () => {
  it('runs the body once per item, in order, and collects the results', async () => {
    const { state, executors } = counting();
    const { summary, events } = await runCollecting(iterationGraph(), { executors, inputs: { items: '[1,2,3]' } });
    expect(summary).toMatchObject({ result: 'succeeded', outputs: { all: [2, 4, 6] }, steps: 6 });
    expect(state.most).toBe(1);
    expect(state.order).toEqual([0, 1, 2]);
    expect(finishedOf(events)).toEqual([
      's:succeeded',
      'it[0]/double:succeeded',
      'it[1]/double:succeeded',
      'it[2]/double:succeeded',
      'it:succeeded',
      'e:succeeded',
    ]);
    const started = events.find((e) => e.type === 'node_started' && e.execution_id === 'it[1]/double');
    expect(started).toMatchObject({ scope: { path: [{ node_id: 'it', index: 1 }] } });
  });

  it('runs items in parallel up to the limit, keeping the results in item order', async () => {
    const { state, executors } = counting(() => false, 15);
    const items = Array.from({ length: 9 }, (_, i) => i);
    const { summary } = await runCollecting(iterationGraph({ parallel: true, parallel_limit: 3 }), {
      executors,
      inputs: { items },
    });
    expect(state.most).toBe(3);
    expect(summary.outputs).toEqual({ all: items.map((i) => i * 2) });
  });

  it('terminate: a failed item fails the node and the run', async () => {
    const { executors } = counting((item) => item === 2);
    const { summary } = await runCollecting(iterationGraph(), { executors, inputs: { items: [1, 2, 3] } });
    expect(summary.result).toBe('failed');
    expect(summary.failure).toMatchObject({
      node_id: 'it',
      error: { code: 'WORKFLOW_NODE_FAILED', detail: 'item 2 failed in double' },
    });
  });

  it('terminate in parallel cancels the other items', async () => {
    const { state, executors } = counting((item) => item === 0, 5);
    const { summary } = await runCollecting(iterationGraph({ parallel: true, parallel_limit: 2 }), {
      executors,
      inputs: { items: Array.from({ length: 20 }, (_, i) => i) },
    });
    expect(summary.result).toBe('failed');
    expect(state.order.length).toBeLessThan(5);
  });

  it('continue puts null for a failed item; remove drops it; both make the run has_error', async () => {
    const kept = await runCollecting(iterationGraph({ error_mode: 'continue' }), {
      executors: counting((item) => item === 2).executors,
      inputs: { items: [1, 2, 3] },
    });
    expect(kept.summary).toMatchObject({ result: 'has_error', outputs: { all: [2, null, 6] } });
    const dropped = await runCollecting(iterationGraph({ error_mode: 'remove' }), {
      executors: counting((item) => item === 2).executors,
      inputs: { items: [1, 2, 3] },
    });
    expect(dropped.summary).toMatchObject({ result: 'has_error', outputs: { all: [2, 6] } });
  });

  it('refuses more items than the limit, and a value that is not a list', async () => {
    const { executors } = counting();
    const tooMany = await runCollecting(iterationGraph(), {
      executors,
      inputs: { items: Array.from({ length: WORKFLOW_LIMITS.iterationMaxItems + 1 }, () => 1) },
    });
    expect(tooMany.summary.failure?.error).toMatchObject({
      code: 'WORKFLOW_ITERATION_TOO_MANY',
      params: { count: 1001, max: 1000 },
    });
    const notList = await runCollecting(iterationGraph(), { executors, inputs: { items: '{"a":1}' } });
    expect(notList.summary.failure?.error).toMatchObject({
      code: 'WORKFLOW_LIST_EXPECTED',
      params: { selector: 's.items' },
    });
  });

  it('gives an empty list an empty result', async () => {
    const { executors } = counting();
    const { summary } = await runCollecting(iterationGraph(), { executors, inputs: { items: '[]' } });
    expect(summary).toMatchObject({ result: 'empty_output', outputs: { all: [] } });
  });
});
