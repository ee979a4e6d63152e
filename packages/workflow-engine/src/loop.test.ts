import { describe, expect, it } from 'vitest';
import type { Condition } from './conditions.ts';
import { end, graphOf, runCollecting, start } from './test-graphs.ts';

const loopGraph = (breakWhen: Condition[], maxCount = 10) =>
  graphOf(
    [
      start('s'),
      {
        id: 'loop',
        type: 'loop',
        data: {
          variables: [
            { name: 'n', type: 'number', initial: '0' },
            { name: 'seen', type: 'array', initial: '[]' },
          ],
          break_when: { conditions: breakWhen },
          max_count: maxCount,
        },
      },
      {
        id: 'step',
        type: 'assigner',
        parent_id: 'loop',
        data: {
          items: [
            { target: ['loop', 'n'], operation: 'add', constant: '1' },
            { target: ['loop', 'seen'], operation: 'append', source: ['loop', 'n'] },
          ],
        },
      },
      end('e', [
        { name: 'n', selector: ['loop', 'n'] },
        { name: 'seen', selector: ['loop', 'seen'] },
      ]),
    ],
    [
      ['s', 'loop'],
      ['loop', 'step', 'body'],
      ['loop', 'e'],
    ],
  );

describe('loop', () => {
  it('runs rounds until the break condition holds after one', async () => {
    const { summary, events } = await runCollecting(
      loopGraph([{ selector: ['loop', 'n'], operator: 'ge', value: '3' }]),
    );
    expect(summary).toMatchObject({ result: 'succeeded', outputs: { n: 3, seen: [1, 2, 3] } });
    const rounds = events.flatMap((e) => (e.type === 'node_finished' && e.node_id === 'step' ? [e.execution_id] : []));
    expect(rounds).toEqual(['loop[0]/step', 'loop[1]/step', 'loop[2]/step']);
  });

  it('stops after max_count rounds when the condition never holds', async () => {
    const { summary } = await runCollecting(loopGraph([{ selector: ['loop', 'n'], operator: 'lt', value: '0' }], 4));
    expect(summary.outputs).toEqual({ n: 4, seen: [1, 2, 3, 4] });
  });

  it('runs max_count rounds without a break condition', async () => {
    const { summary } = await runCollecting(loopGraph([], 2));
    expect(summary.outputs).toEqual({ n: 2, seen: [1, 2] });
  });
});
