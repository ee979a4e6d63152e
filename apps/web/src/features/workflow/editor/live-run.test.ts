import { describe, expect, it } from 'vitest';
import { answerOf, applyRunEvent, badgesOf, emptyRun, type LiveRun, type RunEvent } from './live-run.ts';

const scope = { path: [] };
const error = { code: 40250, key: 'WORKFLOW_NODE_FAILED', msg: '节点失败', detail: 'boom' };

const events: RunEvent[] = [
  { event: 'run_started', data: { run_id: 'r1', workflow_id: 'w1', version_id: null, trigger: 'editor' } },
  {
    event: 'node_started',
    data: { execution_id: 'start', node_id: 'start', node_type: 'start', title: 'Start', scope },
  },
  {
    event: 'node_finished',
    data: {
      execution_id: 'start',
      node_id: 'start',
      status: 'succeeded',
      inputs: {},
      outputs: { q: 'hi' },
      error: null,
      elapsed_ms: 1,
      tokens: 0,
      attempts: 1,
    },
  },
  { event: 'node_started', data: { execution_id: 'llm', node_id: 'llm', node_type: 'llm', title: 'LLM', scope } },
  { event: 'node_retried', data: { execution_id: 'llm', node_id: 'llm', attempt: 2, error } },
  { event: 'text_chunk', data: { node_id: 'llm', text: 'Hel' } },
  { event: 'text_chunk', data: { node_id: 'llm', text: 'lo' } },
];

const fold = (list: RunEvent[], from: LiveRun = emptyRun()) => list.reduce(applyRunEvent, from);

describe('a test run built from its events', () => {
  it('counts events as their sequence numbers, tracks each execution and the streamed text', () => {
    const run = fold(events);
    expect(run.runId).toBe('r1');
    expect(run.seq).toBe(events.length);
    expect(run.nodes.map((node) => [node.node_id, node.status, node.attempts])).toEqual([
      ['start', 'succeeded', 1],
      ['llm', 'running', 2],
    ]);
    expect(answerOf(run)).toBe('Hello');
    expect(badgesOf(run)).toEqual({
      start: { status: 'succeeded', elapsed_ms: 1, tokens: 0 },
      llm: { status: 'running', elapsed_ms: null, tokens: 0 },
    });
    expect(run.summary).toBeNull();
  });

  it('finishes with the summary; the answer nodes’ text wins over what a model streamed', () => {
    const run = fold([
      ...events,
      {
        event: 'node_finished',
        data: {
          execution_id: 'llm',
          node_id: 'llm',
          status: 'failed',
          inputs: { prompt: 'hi' },
          outputs: {},
          error,
          elapsed_ms: 1200,
          tokens: 30,
          attempts: 2,
        },
      },
      {
        event: 'run_finished',
        data: {
          run_id: 'r1',
          result: 'failed',
          outputs: {},
          answer: '',
          failure: { reason: 'node_error', error, node_id: 'llm' },
          steps: 2,
          tokens: 30,
          elapsed_ms: 1300,
        },
      },
    ]);
    expect(run.nodes[1]).toMatchObject({ status: 'failed', error, inputs: { prompt: 'hi' }, elapsed_ms: 1200 });
    expect(run.summary?.result).toBe('failed');
    expect(answerOf(run)).toBe('Hello');
    const withAnswer = applyRunEvent(run, { event: 'run_finished', data: { ...run.summary!, answer: 'Final' } });
    expect(answerOf(withAnswer)).toBe('Final');
  });

  it('adds up the tokens of a node that ran once per item, showing its latest execution', () => {
    const item = (n: number, status: 'succeeded' | 'failed'): RunEvent[] => [
      {
        event: 'node_started',
        data: {
          execution_id: `body#${n}`,
          node_id: 'body',
          node_type: 'llm',
          title: 'Body',
          scope: { path: [{ node_id: 'it', index: n }] },
        },
      },
      {
        event: 'node_finished',
        data: {
          execution_id: `body#${n}`,
          node_id: 'body',
          status,
          inputs: {},
          outputs: {},
          error: null,
          elapsed_ms: 10 * n,
          tokens: 5,
          attempts: 1,
        },
      },
    ];
    const run = fold([...item(1, 'succeeded'), ...item(2, 'failed')]);
    expect(run.nodes.map((node) => node.depth)).toEqual([1, 1]);
    expect(badgesOf(run).body).toEqual({ status: 'failed', elapsed_ms: 20, tokens: 10 });
  });

  it('keeps a problem outside the workflow (the server stopping) and never changes the run given', () => {
    const before = fold(events);
    const copy = structuredClone(before);
    const after = applyRunEvent(before, {
      event: 'error',
      data: { code: 50300, msg: 'restarting', kind: 'shutdown' } as never,
    });
    expect(after.problem).toEqual({ code: 50300, msg: 'restarting' });
    expect(before).toEqual(copy);
  });
});
