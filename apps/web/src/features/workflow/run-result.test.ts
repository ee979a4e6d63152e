import { type NodeRun, RUN_RESULTS } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import en from '../../locales/en.features.json';
import zhCN from '../../locales/zh-CN.features.json';
import zhTW from '../../locales/zh-TW.features.json';
import { formatDuration, groupNodeRuns, RESULT_LOOK } from './run-result.ts';

const run = (node_id: string, path: [string, number][] = [], node_type = 'code'): NodeRun => ({
  execution_id: `${node_id}-${path.map(([, i]) => i).join('.')}`,
  node_id,
  node_type,
  title: node_id,
  scope: { path: path.map(([id, index]) => ({ node_id: id, index })) },
  status: 'succeeded',
  inputs: {},
  outputs: {},
  error: null,
  tokens: 0,
  attempts: 1,
  elapsed_ms: 1,
  started_at: '2026-01-01T00:00:00Z',
  finished_at: '2026-01-01T00:00:00Z',
});

const shape = (entries: ReturnType<typeof groupNodeRuns>): unknown =>
  entries.map((entry) =>
    entry.rounds.length
      ? { [entry.node.node_id]: entry.rounds.map((round) => [round.index, shape(round.entries)]) }
      : entry.node.node_id,
  );

describe('run results', () => {
  it('every one of the four results has a look, a label and an explanation in all three languages', () => {
    for (const result of RUN_RESULTS) {
      expect(RESULT_LOOK[result]).toBeDefined();
      for (const texts of [en, zhCN, zhTW]) {
        expect(texts.workflows.result[result]).toBeTruthy();
        expect(texts.workflows.resultHelp[result]).toBeTruthy();
      }
    }
    expect(en.workflows.result).toMatchObject({
      succeeded: 'Succeeded',
      failed: 'Failed',
      empty_output: 'Empty output',
      has_error: 'Has error',
    });
  });

  it('formats durations for a table cell', () => {
    expect(formatDuration(0)).toBe('0 ms');
    expect(formatDuration(999)).toBe('999 ms');
    expect(formatDuration(1234)).toBe('1.23 s');
    expect(formatDuration(12_340)).toBe('12.3 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
    expect(formatDuration(120_000)).toBe('2 min');
    expect(formatDuration(-1)).toBe('–');
  });
});

describe('groupNodeRuns', () => {
  it('keeps a straight run flat and in order', () => {
    expect(shape(groupNodeRuns([run('start'), run('llm'), run('end')]))).toEqual(['start', 'llm', 'end']);
  });

  it('puts each execution inside an iteration under its round, nested containers too', () => {
    const nodes = [
      run('start'),
      run('it', [], 'iteration'),
      run('a', [['it', 0]]),
      run('a', [['it', 1]]),
      run('loop', [['it', 0]], 'loop'),
      run('b', [
        ['it', 0],
        ['loop', 0],
      ]),
      run('b', [
        ['it', 0],
        ['loop', 1],
      ]),
      run('end'),
    ];
    expect(shape(groupNodeRuns(nodes))).toEqual([
      'start',
      {
        it: [
          [
            0,
            [
              'a',
              {
                loop: [
                  [0, ['b']],
                  [1, ['b']],
                ],
              },
            ],
          ],
          [1, ['a']],
        ],
      },
      'end',
    ]);
  });

  it('keeps an execution whose container is missing instead of dropping it', () => {
    expect(shape(groupNodeRuns([run('start'), run('x', [['gone', 2]])]))).toEqual(['start', 'x']);
  });
});
