import { describe, expect, it } from 'vitest';
import { maskSecrets } from './secrets.ts';
import { answer, code, end, graphOf, runCollecting, start } from './test-graphs.ts';
import type { EngineEvent, Executors } from './types.ts';

describe('secrets', () => {
  it('masks every occurrence in every string, deeply', () => {
    expect(
      maskSecrets({ a: 'Bearer sk-123', b: ['sk-123sk-123', 1, null], c: { 'sk-123': true } }, ['sk-123']),
    ).toEqual({ a: 'Bearer ******', b: ['************', 1, null], c: { '******': true } });
    expect(maskSecrets('nothing', [])).toBe('nothing');
  });

  it('lets nodes read a secret but never reports it', async () => {
    let seen = '';
    const executors: Executors = {
      code: async ({ read, render }) => {
        seen = render('Bearer {{#env.TOKEN#}}');
        return { outputs: { result: `sent ${read(['env', 'TOKEN'])}` }, inputs: { header: seen } };
      },
    };
    const graph = graphOf(
      [
        start('s'),
        code('c'),
        answer('a', 'token is {{#env.TOKEN#}}'),
        end('e', [{ name: 'r', selector: ['c', 'result'] }]),
      ],
      [
        ['s', 'c'],
        ['c', 'a'],
        ['a', 'e'],
      ],
      {
        environment: [
          { name: 'TOKEN', type: 'secret', value: 'sk-live-42' },
          { name: 'PLAIN', type: 'string', value: 'sk' },
        ],
      },
    );
    const { summary, events } = await runCollecting(graph, { executors });
    expect(seen).toBe('Bearer sk-live-42');
    expect(summary).toMatchObject({ answer: 'token is ******', outputs: { r: 'sent ******' } });
    const reported = JSON.stringify(events);
    expect(reported).not.toContain('sk-live-42');
    const finished = events.find(
      (e): e is Extract<EngineEvent, { type: 'node_finished' }> => e.type === 'node_finished' && e.node_id === 'c',
    );
    expect(finished?.inputs).toEqual({ header: 'Bearer ******' });
  });
});
