import { describe, expect, it } from 'vitest';
import { answer, code, delay, end, finishedOf, graphOf, runCollecting, start } from './test-graphs.ts';
import type { Executors } from './types.ts';

describe('parallel branches', () => {
  it('runs ready branches concurrently and joins them', async () => {
    let running = 0;
    let most = 0;
    const executors: Executors = {
      code: async ({ node }) => {
        running++;
        most = Math.max(most, running);
        await delay(30);
        running--;
        return { outputs: { result: node.id } };
      },
    };
    const graph = graphOf(
      [start('s'), code('a'), code('b'), code('c'), answer('join', '{{#a.result#}}+{{#b.result#}}+{{#c.result#}}')],
      [
        ['s', 'a'],
        ['s', 'b'],
        ['s', 'c'],
        ['a', 'join'],
        ['b', 'join'],
        ['c', 'join'],
      ],
    );
    const began = performance.now();
    const { summary, events } = await runCollecting(graph, { executors });
    expect(most).toBe(3);
    expect(performance.now() - began).toBeLessThan(85);
    expect(summary.answer).toBe('a+b+c');
    expect(summary.result).toBe('succeeded');
    // The join ran once, after all three branches.
    const finished = finishedOf(events);
    expect(finished.filter((entry) => entry.startsWith('join'))).toEqual(['join:succeeded']);
    expect(finished.indexOf('join:succeeded')).toBe(4);
  });

  it('waits for the slower branch before the join', async () => {
    const order: string[] = [];
    const executors: Executors = {
      code: async ({ node }) => {
        await delay(node.id === 'slow' ? 40 : 1);
        order.push(node.id);
        return { outputs: { result: node.id } };
      },
    };
    const graph = graphOf(
      [start('s'), code('slow'), code('fast'), code('after'), end('e', [{ name: 'x', selector: ['after', 'result'] }])],
      [
        ['s', 'slow'],
        ['s', 'fast'],
        ['slow', 'after'],
        ['fast', 'after'],
        ['after', 'e'],
      ],
    );
    const { summary } = await runCollecting(graph, { executors });
    expect(order).toEqual(['fast', 'slow', 'after']);
    expect(summary.outputs).toEqual({ x: 'after' });
    expect(summary.steps).toBe(5);
  });
});
