import { describe, expect, it } from 'vitest';
import { answer, code, delay, graphOf, runCollecting, start } from './test-graphs.ts';
import type { Executors } from './types.ts';

describe('events', () => {
  it('come in order: run, node started, retried, text, node finished, run finished', async () => {
    const executors: Executors = {
      code: async ({ attempt, emitText }) => {
        if (attempt === 1) throw new Error('once');
        emitText('tok1');
        await delay(1);
        emitText('tok2');
        return { outputs: { result: 'r' }, tokens: 7, inputs: { prompt: 'p' } };
      },
    };
    const graph = graphOf(
      [start('s'), code('llm', { errors: { retry: { max: 1, interval_ms: 0 } } }), answer('a', '{{#llm.result#}}!')],
      [
        ['s', 'llm'],
        ['llm', 'a'],
      ],
    );
    const { summary, events } = await runCollecting(graph, { executors });
    const compact = events.map((e) => {
      switch (e.type) {
        case 'node_started':
        case 'node_finished':
        case 'node_retried':
          return `${e.type}:${e.node_id}`;
        case 'text_chunk':
          return `text:${e.text}`;
        default:
          return e.type;
      }
    });
    expect(compact).toEqual([
      'run_started',
      'node_started:s',
      'node_finished:s',
      'node_started:llm',
      'node_retried:llm',
      'text:tok1',
      'text:tok2',
      'node_finished:llm',
      'node_started:a',
      'text:r!',
      'node_finished:a',
      'run_finished',
    ]);
    expect(events.find((e) => e.type === 'node_finished' && e.node_id === 'llm')).toMatchObject({
      status: 'succeeded',
      inputs: { prompt: 'p' },
      outputs: { result: 'r' },
      tokens: 7,
      attempts: 2,
      error: null,
    });
    expect(summary.tokens).toBe(7);
    const last = events.at(-1);
    expect(last?.type === 'run_finished' && last.summary).toEqual(summary);
  });

  it('drops text an executor emits after its node was stopped', async () => {
    let late: ((text: string) => void) | null = null;
    const executors: Executors = {
      code: ({ emitText }) => {
        late = emitText;
        return new Promise(() => {});
      },
    };
    const graph = graphOf(
      [start('s'), code('c'), answer('a', 'x')],
      [
        ['s', 'c'],
        ['c', 'a'],
      ],
    );
    graph.settings.max_run_ms = 20;
    const { events } = await runCollecting(graph, { executors });
    const count = events.length;
    (late as unknown as (text: string) => void)('too late');
    expect(events).toHaveLength(count);
  });

  it('gives each execution its own id', async () => {
    const graph = graphOf(
      [
        start('s', [{ name: 'items', type: 'json' }]),
        { id: 'it', type: 'iteration', data: { list: ['s', 'items'], output: ['b', 'answer'] } },
        { ...answer('b', '{{#it.item#}}'), parent_id: 'it' },
        answer('a', '{{#it.output#}}'),
      ],
      [
        ['s', 'it'],
        ['it', 'b', 'body'],
        ['it', 'a'],
      ],
    );
    const { events, summary } = await runCollecting(graph, { inputs: { items: ['x', 'y'] } });
    const ids = events.flatMap((e) => (e.type === 'node_started' ? [e.execution_id] : []));
    expect(ids).toEqual(['s', 'it', 'it[0]/b', 'it[1]/b', 'a']);
    expect(summary.answer).toBe('xy["x","y"]');
  });
});
