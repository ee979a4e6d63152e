import { describe, expect, it } from 'vitest';
import { conditionHolds } from './conditions.ts';
import { answer, end, finishedOf, graphOf, runCollecting, start } from './test-graphs.ts';

const input = (name: string, type = 'text', required = false) => ({ name, type, required });

const branching = graphOf(
  [
    start('s', [input('n', 'number')]),
    {
      id: 'if',
      type: 'if_else',
      data: {
        cases: [
          { id: 'big', conditions: [{ selector: ['s', 'n'], operator: 'gt', value: '10' }] },
          {
            id: 'small',
            logical_operator: 'or',
            conditions: [
              { selector: ['s', 'n'], operator: 'lt', value: '0' },
              { selector: ['s', 'n'], operator: 'eq', value: '5' },
            ],
          },
        ],
      },
    },
    answer('a_big', 'big'),
    answer('a_small', 'small'),
    answer('a_else', 'other'),
    answer('after_big', '!'),
    {
      id: 'join',
      type: 'aggregator',
      data: {
        selectors: [
          ['a_big', 'answer'],
          ['a_small', 'answer'],
          ['a_else', 'answer'],
        ],
        output_type: 'string',
      },
    },
    end('e', [{ name: 'which', selector: ['join', 'output'] }]),
  ],
  [
    ['s', 'if'],
    ['if', 'a_big', 'big'],
    ['if', 'a_small', 'small'],
    ['if', 'a_else', 'else'],
    ['a_big', 'after_big'],
    ['after_big', 'join'],
    ['a_small', 'join'],
    ['a_else', 'join'],
    ['join', 'e'],
  ],
);

describe('if/else and skipped branches', () => {
  it.each([
    [42, 'big', ['s', 'if', 'a_big', 'after_big', 'join', 'e']],
    [5, 'small', ['s', 'if', 'a_small', 'join', 'e']],
    [-1, 'small', ['s', 'if', 'a_small', 'join', 'e']],
    [7, 'other', ['s', 'if', 'a_else', 'join', 'e']],
  ])('n=%s takes one case; the others are skipped down to the join', async (n, which, ran) => {
    const { summary, events } = await runCollecting(branching, { inputs: { n } });
    expect(summary.result).toBe('succeeded');
    expect(summary.outputs).toEqual({ which });
    expect(finishedOf(events)).toEqual(ran.map((id) => `${id}:succeeded`));
    const started = events.flatMap((event) => (event.type === 'node_started' ? [event.node_id] : []));
    expect(started).toEqual(ran);
  });

  it('skips everything after a branch that is never taken, even past several nodes', async () => {
    const graph = graphOf(
      [
        start('s'),
        {
          id: 'if',
          type: 'if_else',
          data: {
            cases: [{ id: 'never', conditions: [{ selector: ['sys', 'query'], operator: 'is', value: 'nope' }] }],
          },
        },
        answer('x1', 'x1'),
        answer('x2', 'x2'),
        answer('x3', 'x3'),
        answer('done', 'done'),
      ],
      [
        ['s', 'if'],
        ['if', 'x1', 'never'],
        ['x1', 'x2'],
        ['x2', 'x3'],
        ['if', 'done', 'else'],
      ],
    );
    const { summary, events } = await runCollecting(graph);
    expect(summary.answer).toBe('done');
    expect(finishedOf(events)).toEqual(['s:succeeded', 'if:succeeded', 'done:succeeded']);
  });

  it('evaluates the operators over strings, numbers and arrays', () => {
    expect(conditionHolds('contains', 'hello world', 'lo w')).toBe(true);
    expect(conditionHolds('contains', ['a', 'b'], 'b')).toBe(true);
    expect(conditionHolds('not_contains', ['a', 'b'], 'c')).toBe(true);
    expect(conditionHolds('starts_with', 'hello', 'he')).toBe(true);
    expect(conditionHolds('ends_with', 'hello', 'lo')).toBe(true);
    expect(conditionHolds('is', 3, '3')).toBe(true);
    expect(conditionHolds('is_not', 'a', 'b')).toBe(true);
    expect(conditionHolds('empty', [], '')).toBe(true);
    expect(conditionHolds('empty', {}, '')).toBe(true);
    expect(conditionHolds('not_empty', 'x', '')).toBe(true);
    expect(conditionHolds('eq', '2.0', '2')).toBe(true);
    expect(conditionHolds('ne', 'abc', 'abd')).toBe(true);
    expect(conditionHolds('gt', 3, '2')).toBe(true);
    expect(conditionHolds('gt', 'x', '2')).toBe(false);
    expect(conditionHolds('lt', '1', '2')).toBe(true);
    expect(conditionHolds('ge', 2, '2')).toBe(true);
    expect(conditionHolds('le', 2, '1')).toBe(false);
    expect(conditionHolds('in', 'b', 'a, b, c')).toBe(true);
    expect(conditionHolds('in', 2, '[1,2]')).toBe(true);
    expect(conditionHolds('not_in', 'z', '["a"]')).toBe(true);
  });
});
