import { describe, expect, it } from 'vitest';
import { answer, code, delay, end, finishedOf, graphOf, runCollecting, start } from './test-graphs.ts';
import type { Executors } from './types.ts';

const chainOf = (length: number) => {
  const nodes = [start('s')];
  const edges: Array<[string, string]> = [];
  let previous = 's';
  for (let i = 0; i < length; i++) {
    nodes.push(answer(`a${i}`, `${i}`));
    edges.push([previous, `a${i}`]);
    previous = `a${i}`;
  }
  return graphOf(nodes, edges, { settings: { max_steps: 5 } });
};

/** An executor that never looks at its signal and never returns. */
const stubborn: Executors = { code: () => new Promise(() => {}) };

const hanging = () =>
  graphOf(
    [start('s'), code('hang'), code('hang2'), end('e')],
    [
      ['s', 'hang'],
      ['s', 'hang2'],
      ['hang', 'e'],
      ['hang2', 'e'],
    ],
  );

describe('run limits', () => {
  it('fails the run at the step limit', async () => {
    const { summary, events } = await runCollecting(chainOf(10));
    expect(summary).toMatchObject({
      result: 'failed',
      steps: 5,
      failure: { reason: 'step_limit', node_id: 'a4', error: { code: 'WORKFLOW_STEP_LIMIT', params: { max: 5 } } },
    });
    expect(finishedOf(events)).toHaveLength(5);
    expect(events.at(-1)?.type).toBe('run_finished');
  });

  it('counts every iteration item as steps', async () => {
    const graph = graphOf(
      [
        start('s', [{ name: 'items', type: 'json' }]),
        { id: 'it', type: 'iteration', data: { list: ['s', 'items'], output: ['body', 'answer'] } },
        { ...answer('body', 'x'), parent_id: 'it' },
        end('e'),
      ],
      [
        ['s', 'it'],
        ['it', 'body', 'body'],
        ['it', 'e'],
      ],
      { settings: { max_steps: 6 } },
    );
    const { summary } = await runCollecting(graph, { inputs: { items: [1, 2, 3, 4, 5, 6] } });
    expect(summary.failure?.reason).toBe('step_limit');
  });

  it('ends at the run time limit although executors ignore their signal, reporting them as stopped', async () => {
    const graph = hanging();
    graph.settings.max_run_ms = 40;
    const began = performance.now();
    const { summary, events } = await runCollecting(graph, { executors: stubborn });
    expect(performance.now() - began).toBeLessThan(400);
    expect(summary).toMatchObject({
      result: 'failed',
      failure: { reason: 'timeout', node_id: null, error: { code: 'WORKFLOW_RUN_TIMEOUT', params: { ms: 40 } } },
    });
    expect(finishedOf(events).sort()).toEqual(['hang2:failed', 'hang:failed', 's:succeeded']);
    const stopped = events.find((e) => e.type === 'node_finished' && e.node_id === 'hang');
    expect(stopped).toMatchObject({ error: { code: 'WORKFLOW_RUN_TIMEOUT' } });
    expect(events.at(-1)?.type).toBe('run_finished');
  });

  it('cancels: every executor signal fires and the run ends at once, even if they ignore it', async () => {
    const signals: AbortSignal[] = [];
    const executors: Executors = {
      code: ({ signal }) => {
        signals.push(signal);
        return new Promise(() => {});
      },
    };
    const controller = new AbortController();
    const running = runCollecting(hanging(), { executors, signal: controller.signal });
    await delay(20);
    expect(signals).toHaveLength(2);
    const began = performance.now();
    controller.abort();
    const { summary, events } = await running;
    expect(performance.now() - began).toBeLessThan(50);
    expect(signals.every((signal) => signal.aborted)).toBe(true);
    expect(summary).toMatchObject({
      result: 'failed',
      failure: { reason: 'cancelled', error: { code: 'WORKFLOW_RUN_CANCELLED' } },
    });
    expect(events.filter((e) => e.type === 'node_finished' && e.status === 'failed')).toHaveLength(2);
  });

  it('cancels before the start when the signal has already fired', async () => {
    const controller = new AbortController();
    controller.abort();
    const { summary, events } = await runCollecting(hanging(), { executors: stubborn, signal: controller.signal });
    expect(summary.failure?.reason).toBe('cancelled');
    expect(events.map((e) => e.type)).toEqual(['run_started', 'run_finished']);
  });

  it('refuses an invalid graph without running a node', async () => {
    const graph = graphOf([start('s'), code('c')], [['s', 'c']]);
    const { summary, events } = await runCollecting(graph, { executors: stubborn });
    expect(summary).toMatchObject({
      result: 'failed',
      failure: { reason: 'invalid_graph', error: { code: 'WORKFLOW_INVALID', params: { count: 1 } } },
    });
    expect(events.map((e) => e.type)).toEqual(['run_started', 'run_finished']);
  });
});
