import { describe, expect, it } from 'vitest';
import { runResultOf } from './result.ts';
import { answer, code, end, graphOf, runCollecting, start } from './test-graphs.ts';
import type { Executors } from './types.ts';

describe('the four results', () => {
  it('checks failed, then has_error, then empty_output, then succeeded', () => {
    const base = { aborted: false, handled: false, endOutputs: [{ a: 'x' }], answers: [] };
    expect(runResultOf({ ...base, aborted: true, handled: true })).toBe('failed');
    expect(runResultOf({ ...base, handled: true, endOutputs: [{ a: '' }] })).toBe('has_error');
    expect(
      runResultOf({ ...base, endOutputs: [{ a: null, b: [], c: {}, d: '' }, { e: undefined }], answers: [''] }),
    ).toBe('empty_output');
    expect(runResultOf({ ...base, endOutputs: [] })).toBe('empty_output');
    expect(runResultOf({ ...base, endOutputs: [{ a: '' }], answers: ['hi'] })).toBe('succeeded');
    expect(runResultOf({ ...base, endOutputs: [{ a: 0 }] })).toBe('succeeded');
    expect(runResultOf({ ...base, endOutputs: [{ a: false }] })).toBe('succeeded');
    expect(runResultOf(base)).toBe('succeeded');
  });

  const outputs = (value: unknown): Executors => ({
    code: async () => {
      if (value instanceof Error) throw value;
      return { outputs: { result: value } };
    },
  });
  const graph = (onError: 'abort' | 'default' = 'abort') =>
    graphOf(
      [
        start('s'),
        code('c', { errors: { on_error: onError, default_outputs: { result: 'd' } } }),
        end('e', [{ name: 'r', selector: ['c', 'result'] }]),
      ],
      [
        ['s', 'c'],
        ['c', 'e'],
      ],
    );

  it('gives each result from a real run', async () => {
    expect((await runCollecting(graph(), { executors: outputs('text') })).summary.result).toBe('succeeded');
    expect((await runCollecting(graph(), { executors: outputs([]) })).summary.result).toBe('empty_output');
    expect((await runCollecting(graph('default'), { executors: outputs(new Error('x')) })).summary.result).toBe(
      'has_error',
    );
    expect((await runCollecting(graph(), { executors: outputs(new Error('x')) })).summary.result).toBe('failed');
  });

  it('counts answers in the order they ran', async () => {
    const twoAnswers = graphOf(
      [start('s'), answer('a1', 'Hello, '), answer('a2', '{{#sys.user_id#}}')],
      [
        ['s', 'a1'],
        ['a1', 'a2'],
      ],
    );
    expect((await runCollecting(twoAnswers)).summary).toMatchObject({ answer: 'Hello, u1', result: 'succeeded' });
  });
});
