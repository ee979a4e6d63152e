import { UNIT_STATUSES } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { anyActive, countByStatus, SUMMARY_ORDER, summaryParts, unitActions } from './unit-status.ts';

describe('unit statuses', () => {
  it('polls only while something waits or indexes', () => {
    expect(anyActive(undefined)).toBe(false);
    expect(anyActive([{ status: 'indexed' }, { status: 'failed' }, { status: 'not_indexed' }])).toBe(false);
    expect(anyActive([{ status: 'indexed' }, { status: 'waiting' }])).toBe(true);
    expect(anyActive([{ status: 'indexing' }])).toBe(true);
  });

  it('summarises the non-zero counts, done first and problems last', () => {
    const counts = countByStatus([
      ...Array(12).fill({ status: 'indexed' }),
      { status: 'failed' },
      { status: 'indexing' },
      { status: 'indexing' },
    ]);
    expect(summaryParts(counts)).toEqual([
      { status: 'indexed', count: 12 },
      { status: 'indexing', count: 2 },
      { status: 'failed', count: 1 },
    ]);
    expect(summaryParts({})).toEqual([]);
  });

  it('orders every status exactly once', () => {
    expect([...SUMMARY_ORDER].sort()).toEqual([...UNIT_STATUSES].sort());
  });

  it('offers start, cancel or retry by state', () => {
    expect(unitActions('not_indexed')).toEqual({ start: true, cancel: false, retry: false });
    expect(unitActions('waiting')).toEqual({ start: false, cancel: true, retry: false });
    expect(unitActions('indexing')).toEqual({ start: false, cancel: true, retry: false });
    expect(unitActions('indexed')).toEqual({ start: false, cancel: false, retry: false });
    expect(unitActions('failed')).toEqual({ start: false, cancel: false, retry: true });
    expect(unitActions('canceled')).toEqual({ start: false, cancel: false, retry: true });
  });
});
