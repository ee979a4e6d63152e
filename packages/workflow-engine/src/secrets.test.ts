import { describe, expect, it } from 'vitest';
import { runWorkflow } from './scheduler.ts';
import { MaskedStream, maskSecrets, secretsOf } from './secrets.ts';
import { answer, code, end, graphOf, runCollecting, SYSTEM, start } from './test-graphs.ts';
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

  const streaming = (environment: Array<{ name: string; type: 'secret' | 'string'; value: string }>) =>
    graphOf(
      [start('s'), code('c'), end('e', [{ name: 'r', selector: ['c', 'result'] }])],
      [
        ['s', 'c'],
        ['c', 'e'],
      ],
      { environment },
    );
  const textOf = (events: EngineEvent[]) => events.flatMap((e) => (e.type === 'text_chunk' ? [e.text] : [])).join('');

  it('masks a secret split across streamed chunks, and sends the held-back rest when the node ends', async () => {
    const chunks = ['key: sk-ab', 'cd', '12 and ', 'sk-abcd12', ' done, sk-a'];
    const executors: Executors = {
      code: async ({ emitText }) => {
        for (const chunk of chunks) emitText(chunk);
        return { outputs: { result: 'ok' } };
      },
    };
    const graph = streaming([{ name: 'KEY', type: 'secret', value: 'sk-abcd12' }]);
    const { events } = await runCollecting(graph, { executors });
    expect(textOf(events)).toBe('key: ****** and ****** done, sk-a');
    for (const event of events) if (event.type === 'text_chunk') expect(event.text).not.toMatch(/sk-ab|cd12/);
    // Every chunk is out before the node's end.
    const finished = events.findIndex((e) => e.type === 'node_finished' && e.node_id === 'c');
    expect(events.findLastIndex((e) => e.type === 'text_chunk')).toBeLessThan(finished);
  });

  it('streams each chunk at once when the workflow has no secrets', async () => {
    const seen: string[] = [];
    const executors: Executors = {
      code: async ({ emitText }) => {
        emitText('first');
        seen.push(textOf(events));
        return { outputs: { result: 'ok' } };
      },
    };
    const events: EngineEvent[] = [];
    await runWorkflow({
      graph: streaming([{ name: 'PLAIN', type: 'string', value: 'first' }]),
      inputs: {},
      system: SYSTEM,
      executors,
      onEvent: (event) => events.push(event),
    });
    expect(seen).toEqual(['first']);
  });

  it('never lets a chunk out that could be the start of a secret, with secrets inside one another', () => {
    const sent: string[] = [];
    const stream = new MaskedStream(
      secretsOf([
        { type: 'secret', value: 'ab' },
        { type: 'secret', value: 'bcdef' },
      ]),
      (text) => sent.push(text),
    );
    for (const chunk of 'xxabcdefyy'.split('')) stream.push(chunk);
    stream.flush();
    expect(sent.join('')).toBe('xxa******yy');
    expect(sent.join('|')).not.toMatch(/b\|c|bc/);
  });

  it('masks a secret in the forms a request sends it in: percent-encoded, form-encoded, derived', async () => {
    const secrets = secretsOf([{ type: 'secret', value: 'ab/c+d= é' }]);
    const url = new URL('https://example.com/');
    url.searchParams.append('k', 'ab/c+d= é');
    expect(maskSecrets(url.toString(), secrets)).toBe('https://example.com/?k=******');
    expect(maskSecrets(`/p/${encodeURIComponent('ab/c+d= é')}`, secrets)).toBe('/p/******');

    const basic = btoa('me:ab/c+d= é');
    const executors: Executors = {
      code: async ({ maskDerived, mask }) => {
        maskDerived('me:nothing secret', 'bm90aGluZw==');
        maskDerived('me:ab/c+d= é', basic);
        return { outputs: { result: `echoed Basic ${basic}, bm90aGluZw==` }, inputs: { sent: mask('ab/c+d= é') } };
      },
    };
    const graph = streaming([{ name: 'PASS', type: 'secret', value: 'ab/c+d= é' }]);
    const { summary, events } = await runCollecting(graph, { executors });
    expect(summary.outputs).toEqual({ r: 'echoed Basic ******, bm90aGluZw==' });
    const finished = events.find((e) => e.type === 'node_finished' && e.node_id === 'c');
    expect(finished).toMatchObject({ inputs: { sent: '******' } });
  });
});
