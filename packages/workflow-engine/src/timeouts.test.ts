import { describe, expect, it } from 'vitest';
import { code, delay, end, graphOf, runCollecting, start } from './test-graphs.ts';
import type { Executors } from './types.ts';

describe('node timeouts', () => {
  it('fails a node past its timeout and fires its signal', async () => {
    let aborted = false;
    const executors: Executors = {
      code: ({ signal }) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            aborted = true;
          });
          setTimeout(() => resolve({ outputs: { result: 'late' } }), 500);
        }),
    };
    const graph = graphOf(
      [start('s'), code('slow'), end('e')],
      [
        ['s', 'slow'],
        ['slow', 'e'],
      ],
    );
    graph.nodes[1]!.errors.timeout_ms = 30;
    const began = performance.now();
    const { summary } = await runCollecting(graph, { executors });
    expect(performance.now() - began).toBeLessThan(300);
    expect(aborted).toBe(true);
    expect(summary.result).toBe('failed');
    expect(summary.failure).toMatchObject({
      reason: 'node_error',
      node_id: 'slow',
      error: { code: 'WORKFLOW_NODE_TIMEOUT', params: { ms: 30 } },
    });
  });

  it('times out each attempt, then retries and may succeed', async () => {
    const executors: Executors = {
      code: async ({ attempt }) => {
        if (attempt === 1) await delay(200);
        return { outputs: { result: attempt } };
      },
    };
    const graph = graphOf(
      [
        start('s'),
        code('c', { errors: { retry: { max: 1, interval_ms: 0 } } }),
        end('e', [{ name: 'a', selector: ['c', 'result'] }]),
      ],
      [
        ['s', 'c'],
        ['c', 'e'],
      ],
    );
    graph.nodes[1]!.errors.timeout_ms = 20;
    const { summary, events } = await runCollecting(graph, { executors });
    expect(summary).toMatchObject({ result: 'succeeded', outputs: { a: 2 } });
    expect(events.find((e) => e.type === 'node_retried')).toMatchObject({ error: { code: 'WORKFLOW_NODE_TIMEOUT' } });
  });
});
