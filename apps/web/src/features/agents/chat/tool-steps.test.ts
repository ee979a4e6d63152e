import type { AgentToolStep } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { formatDuration, prettyArguments, shownStatus, upsertStep } from './tool-steps.ts';

const step = (id: string, change: Partial<AgentToolStep> = {}): AgentToolStep => ({
  id,
  server_id: 's1',
  server_name: 'Weather',
  tool: 'forecast',
  arguments: '{"city":"Paris"}',
  status: 'running',
  output: '',
  duration_ms: null,
  ...change,
});

describe('tool steps in the chat', () => {
  it('adds a started call last and replaces a finished one where it stands', () => {
    let steps = upsertStep([], step('a'));
    steps = upsertStep(steps, step('b'));
    steps = upsertStep(steps, step('a', { status: 'ok', output: 'Sunny', duration_ms: 120 }));
    expect(steps.map((item) => [item.id, item.status, item.output])).toEqual([
      ['a', 'ok', 'Sunny'],
      ['b', 'running', ''],
    ]);
    steps = upsertStep(steps, step('b', { status: 'error', output: 'timeout' }));
    expect(steps.map((item) => item.status)).toEqual(['ok', 'error']);
  });

  it('does not change the steps it was given', () => {
    const before = [step('a')];
    upsertStep(before, step('a', { status: 'ok' }));
    expect(before[0]?.status).toBe('running');
  });

  it('pretty-prints JSON arguments and keeps anything else as written', () => {
    expect(prettyArguments('{"city":"Paris","days":[1,2]}')).toBe(
      '{\n  "city": "Paris",\n  "days": [\n    1,\n    2\n  ]\n}',
    );
    expect(prettyArguments('{"city":"Par')).toBe('{"city":"Par');
    expect(prettyArguments('  ')).toBe('');
  });

  it('formats durations', () => {
    expect(formatDuration(null)).toBe('');
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(1234)).toBe('1.2 s');
    expect(formatDuration(75_400)).toBe('75 s');
  });

  it('shows a call still running in an answer that ended as unfinished', () => {
    expect(shownStatus(step('a'), true)).toBe('running');
    expect(shownStatus(step('a'), false)).toBe('unfinished');
    expect(shownStatus(step('a', { status: 'ok' }), false)).toBe('ok');
  });
});
