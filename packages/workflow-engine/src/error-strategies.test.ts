import { describe, expect, it } from 'vitest';
import { answer, code, end, finishedOf, graphOf, runCollecting, start } from './test-graphs.ts';
import { type EngineEvent, type Executors, NodeFailure } from './types.ts';

const failing: Executors = {
  code: async ({ node }) => {
    if (node.id.startsWith('bad')) throw new Error('boom');
    return { outputs: { result: `${node.id} ok` } };
  },
};

const chain = (errors: Record<string, unknown>) =>
  graphOf(
    [
      start('s'),
      code('bad', { errors }),
      answer('ok', 'ok: {{#bad.result#}}'),
      ...(errors.on_error === 'fail_branch' ? [answer('ko', 'ko: {{#bad.error_message#}}')] : []),
    ],
    [
      ['s', 'bad'],
      ['bad', 'ok'],
      ...(errors.on_error === 'fail_branch' ? [['bad', 'ko', 'fail'] as [string, string, string]] : []),
    ],
  );

describe('error strategies', () => {
  it('abort: the run fails with the node error, and nothing after it runs', async () => {
    const { summary, events } = await runCollecting(chain({ on_error: 'abort' }), { executors: failing });
    expect(summary.result).toBe('failed');
    expect(summary.failure).toEqual({
      reason: 'node_error',
      node_id: 'bad',
      error: { code: 'WORKFLOW_NODE_FAILED', params: { detail: 'boom' }, detail: 'boom' },
    });
    expect(finishedOf(events)).toEqual(['s:succeeded', 'bad:failed']);
  });

  it('keeps a catalogue code an executor throws', async () => {
    const executors: Executors = {
      code: async () => {
        throw new NodeFailure('MODEL_CALL_FAILED', { status: 502 }, 'bad gateway');
      },
    };
    const { summary } = await runCollecting(chain({}), { executors });
    expect(summary.failure?.error).toEqual({
      code: 'MODEL_CALL_FAILED',
      params: { status: 502 },
      detail: 'bad gateway',
    });
  });

  it('default: the node outputs its default values, is handled, and the run has_error', async () => {
    const { summary, events } = await runCollecting(
      chain({ on_error: 'default', default_outputs: { result: 'fallback' } }),
      { executors: failing },
    );
    expect(summary.answer).toBe('ok: fallback');
    expect(summary.result).toBe('has_error');
    expect(finishedOf(events)).toEqual(['s:succeeded', 'bad:handled', 'ok:succeeded']);
    const handled = events.find((e) => e.type === 'node_finished' && e.node_id === 'bad');
    expect(handled).toMatchObject({ outputs: { result: 'fallback' }, error: { code: 'WORKFLOW_NODE_FAILED' } });
  });

  it('fail_branch: the run follows the fail edge, skips the out edge, and reads error_message', async () => {
    const { summary, events } = await runCollecting(chain({ on_error: 'fail_branch' }), { executors: failing });
    expect(summary.answer).toBe('ko: boom');
    expect(summary.result).toBe('has_error');
    expect(finishedOf(events)).toEqual(['s:succeeded', 'bad:handled', 'ko:succeeded']);
  });

  it('fail_branch: a node that succeeds skips its fail edge', async () => {
    const graph = graphOf(
      [start('s'), code('good', { errors: { on_error: 'fail_branch' } }), answer('ok', 'fine'), answer('ko', 'no')],
      [
        ['s', 'good'],
        ['good', 'ok'],
        ['good', 'ko', 'fail'],
      ],
    );
    const { summary } = await runCollecting(graph, { executors: failing });
    expect(summary).toMatchObject({ answer: 'fine', result: 'succeeded' });
  });

  it('retries with the interval, reporting each retry, before the strategy applies', async () => {
    const attempts: Array<{ attempt: number; at: number }> = [];
    const executors: Executors = {
      code: async ({ attempt }) => {
        attempts.push({ attempt, at: performance.now() });
        if (attempt < 3) throw new Error(`try ${attempt}`);
        return { outputs: { result: 'third time' } };
      },
    };
    const graph = graphOf(
      [
        start('s'),
        code('c', { errors: { retry: { max: 3, interval_ms: 25 } } }),
        end('e', [{ name: 'r', selector: ['c', 'result'] }]),
      ],
      [
        ['s', 'c'],
        ['c', 'e'],
      ],
    );
    const { summary, events } = await runCollecting(graph, { executors });
    expect(summary).toMatchObject({ result: 'succeeded', outputs: { r: 'third time' }, steps: 3 });
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(20);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(20);
    const retried = events.filter(
      (e): e is Extract<EngineEvent, { type: 'node_retried' }> => e.type === 'node_retried',
    );
    expect(retried.map((e) => [e.attempt, e.error.detail])).toEqual([
      [2, 'try 1'],
      [3, 'try 2'],
    ]);
    expect(events.find((e) => e.type === 'node_finished' && e.node_id === 'c')).toMatchObject({ attempts: 3 });
  });

  it('applies the strategy once the retries run out', async () => {
    let calls = 0;
    const executors: Executors = {
      code: async () => {
        calls++;
        throw new Error('always');
      },
    };
    const graph = chain({ retry: { max: 2, interval_ms: 0 }, on_error: 'default', default_outputs: { result: 'd' } });
    const { summary } = await runCollecting(graph, { executors });
    expect(calls).toBe(3);
    expect(summary).toMatchObject({ result: 'has_error', answer: 'ok: d' });
  });

  it('fails a node kind without an executor as unsupported', async () => {
    const missing = await runCollecting(chain({}), { executors: {} });
    expect(missing.summary.failure?.error).toMatchObject({
      code: 'WORKFLOW_NODE_UNSUPPORTED',
      params: { type: 'code' },
    });
  });
});
