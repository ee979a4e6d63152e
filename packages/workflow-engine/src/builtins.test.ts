import { startInputSchema } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { startValue } from './nodes/start.ts';
import { answer, end, graphOf, runCollecting, start } from './test-graphs.ts';
import { NodeFailure } from './types.ts';

const input = (fields: Record<string, unknown>) => startInputSchema.parse({ name: 'x', ...fields });
const failureOf = (run: () => unknown): [string, Record<string, unknown>] | null => {
  try {
    run();
  } catch (error) {
    if (error instanceof NodeFailure) return [error.code, error.params];
    throw error;
  }
  return null;
};

describe('start inputs', () => {
  it('requires required inputs and types the others', () => {
    expect(failureOf(() => startValue(input({ type: 'text', label: 'Name' }), ''))).toEqual([
      'WORKFLOW_INPUT_REQUIRED',
      { name: 'Name' },
    ]);
    expect(startValue(input({ type: 'text', required: false }), undefined)).toBe('');
    expect(startValue(input({ type: 'number', required: false }), null)).toBe(null);
    expect(startValue(input({ type: 'number' }), ' 4.5 ')).toBe(4.5);
    expect(failureOf(() => startValue(input({ type: 'number' }), 'four'))).toEqual([
      'WORKFLOW_INPUT_INVALID',
      { name: 'x', detail: 'not a number' },
    ]);
    expect(startValue(input({ type: 'select', options: ['a', 'b'] }), 'b')).toBe('b');
    expect(failureOf(() => startValue(input({ type: 'select', options: ['a', 'b'] }), 'c'))?.[0]).toBe(
      'WORKFLOW_INPUT_INVALID',
    );
    expect(failureOf(() => startValue(input({ type: 'paragraph', max_length: 3 }), 'abcd'))).toEqual([
      'WORKFLOW_INPUT_INVALID',
      { name: 'x', detail: 'at most 3 characters' },
    ]);
    expect(startValue(input({ type: 'json' }), '{"a":[1]}')).toEqual({ a: [1] });
    expect(startValue(input({ type: 'json' }), { a: 1 })).toEqual({ a: 1 });
    expect(failureOf(() => startValue(input({ type: 'json' }), '{nope'))?.[0]).toBe('WORKFLOW_INPUT_INVALID');
    expect(startValue(input({ type: 'text' }), 12)).toBe('12');
  });

  it('fails the run on a bad input', async () => {
    const graph = graphOf([start('s', [{ name: 'q', type: 'text' }]), end('e')], [['s', 'e']]);
    const { summary } = await runCollecting(graph, { inputs: {} });
    expect(summary.failure).toMatchObject({
      reason: 'node_error',
      node_id: 's',
      error: { code: 'WORKFLOW_INPUT_REQUIRED' },
    });
  });
});

describe('aggregator, list operator and assigner', () => {
  it('aggregates the first value present', async () => {
    const graph = graphOf(
      [
        start('s', [
          { name: 'n', type: 'number', required: false },
          { name: 'a', type: 'text' },
        ]),
        {
          id: 'agg',
          type: 'aggregator',
          data: {
            selectors: [
              ['s', 'n'],
              ['s', 'a'],
            ],
            output_type: 'string',
          },
        },
        end('e', [{ name: 'v', selector: ['agg', 'output'] }]),
      ],
      [
        ['s', 'agg'],
        ['agg', 'e'],
      ],
    );
    expect((await runCollecting(graph, { inputs: { a: 'A' } })).summary.outputs).toEqual({ v: 'A' });
    expect((await runCollecting(graph, { inputs: { a: 'A', n: 0 } })).summary.outputs).toEqual({ v: 0 });
  });

  it('filters, sorts and cuts a list', async () => {
    const graph = graphOf(
      [
        start('s', [{ name: 'people', type: 'json' }]),
        {
          id: 'ops',
          type: 'list_operator',
          data: {
            list: ['s', 'people'],
            filter: { conditions: [{ selector: ['ops', 'item', 'age'], operator: 'ge', value: '18' }] },
            sort: { key: 'age', order: 'desc' },
            limit: 2,
          },
        },
        end('e', [
          { name: 'result', selector: ['ops', 'result'] },
          { name: 'first', selector: ['ops', 'first', 'name'] },
          { name: 'last', selector: ['ops', 'last', 'name'] },
        ]),
      ],
      [
        ['s', 'ops'],
        ['ops', 'e'],
      ],
    );
    const people = [
      { name: 'Ann', age: 30 },
      { name: 'Bo', age: 12 },
      { name: 'Cy', age: 45 },
      { name: 'Di', age: 18 },
    ];
    const { summary } = await runCollecting(graph, { inputs: { people } });
    expect(summary.outputs).toEqual({
      result: [
        { name: 'Cy', age: 45 },
        { name: 'Ann', age: 30 },
      ],
      first: 'Cy',
      last: 'Ann',
    });
  });

  it('assigns environment variables for the rest of the run, and upstream outputs without changing reported ones', async () => {
    const graph = graphOf(
      [
        start('s', [{ name: 'q', type: 'text' }]),
        {
          id: 'set',
          type: 'assigner',
          data: {
            items: [
              { target: ['env', 'COUNT'], operation: 'add', constant: '2' },
              { target: ['s', 'q'], operation: 'set', constant: 'changed' },
            ],
          },
        },
        answer('a', '{{#env.COUNT#}} {{#s.q#}}'),
      ],
      [
        ['s', 'set'],
        ['set', 'a'],
      ],
      { environment: [{ name: 'COUNT', type: 'number', value: '40' }] },
    );
    const { summary, events } = await runCollecting(graph, { inputs: { q: 'original' } });
    expect(summary.answer).toBe('42 changed');
    expect(events.find((e) => e.type === 'node_finished' && e.node_id === 's')).toMatchObject({
      outputs: { q: 'original' },
    });
  });
});
