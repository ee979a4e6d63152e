import { describe, expect, it } from 'vitest';
import { dateOf, dayDistance, dayKeyOf, listTimeOf, longDateOf } from './chat-time.ts';

const ZONE = 'Asia/Shanghai';
// 2026-05-03 10:30 in Shanghai.
const NOW = Date.parse('2026-05-03T02:30:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const MIN = 60_000;

describe('the conversation list time', () => {
  it('says just now, minutes, then hours within the day', () => {
    expect(listTimeOf(ago(20_000), NOW, ZONE)).toEqual({ kind: 'justNow' });
    expect(listTimeOf(ago(5 * MIN), NOW, ZONE)).toEqual({ kind: 'minutes', count: 5 });
    expect(listTimeOf(ago(59 * MIN), NOW, ZONE)).toEqual({ kind: 'minutes', count: 59 });
    expect(listTimeOf(ago(3 * 60 * MIN), NOW, ZONE)).toEqual({ kind: 'hours', count: 3 });
  });

  it('says yesterday across midnight in the person’s zone, not by 24 hours', () => {
    // 23:50 the day before, 10 h 40 min ago.
    expect(listTimeOf('2026-05-02T15:50:00Z', NOW, ZONE)).toEqual({ kind: 'yesterday' });
    // The same instant is still "today" in New York (it is 11:50 there and 22:30 now).
    expect(listTimeOf('2026-05-02T15:50:00Z', NOW, 'America/New_York')).toEqual({ kind: 'hours', count: 10 });
  });

  it('counts days within a week, then gives a date', () => {
    expect(listTimeOf('2026-04-29T12:00:00Z', NOW, ZONE)).toEqual({ kind: 'days', count: 4 });
    expect(listTimeOf('2026-04-01T12:00:00Z', NOW, ZONE)).toEqual({ kind: 'date', sameYear: true });
    expect(listTimeOf('2025-12-01T12:00:00Z', NOW, ZONE)).toEqual({ kind: 'date', sameYear: false });
  });

  it('never reads a time ahead of the clock as the future', () => {
    expect(listTimeOf(new Date(NOW + 90_000).toISOString(), NOW, ZONE)).toEqual({ kind: 'justNow' });
  });

  it('formats dates in the UI language', () => {
    expect(dateOf('2026-04-01T12:00:00Z', ZONE, 'zh-CN', true)).toBe('4月1日');
    expect(dateOf('2026-04-01T12:00:00Z', ZONE, 'en', true)).toBe('Apr 1');
    expect(dateOf('2025-12-01T12:00:00Z', ZONE, 'zh-CN', false)).toBe('2025/12/1');
    expect(longDateOf('2026-05-03T02:30:00Z', ZONE, 'en')).toBe('Sunday, May 3, 2026');
  });
});

describe('days in a zone', () => {
  it('puts a late-evening message on its own local day', () => {
    expect(dayKeyOf('2026-05-02T16:30:00Z', ZONE)).toBe('2026-05-03');
    expect(dayKeyOf('2026-05-02T16:30:00Z', 'UTC')).toBe('2026-05-02');
    expect(dayDistance(Date.parse('2026-05-02T16:30:00Z'), NOW, ZONE)).toBe(0);
  });
});
