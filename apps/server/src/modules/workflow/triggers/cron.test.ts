import { describe, expect, it } from 'vitest';
import { type CronSchedule, isTimeZone, nextFires, parseCron } from './cron.ts';

const schedule = (expression: string) => {
  const parsed = parseCron(expression);
  if (typeof parsed === 'string') throw new Error(`${expression}: ${parsed}`);
  return parsed as CronSchedule;
};
const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

describe('cron expressions in a time zone', () => {
  it('refuses six fields (seconds), bad values and unknown zones', () => {
    expect(parseCron('* * * * * *')).toBe('fields');
    expect(parseCron('* * * *')).toBe('fields');
    expect(parseCron('60 * * * *')).toBe('value');
    expect(parseCron('*/0 * * * *')).toBe('value');
    expect(parseCron('5-1 * * * *')).toBe('value');
    expect(parseCron('a * * * *')).toBe('value');
    expect(isTimeZone('Asia/Shanghai')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });

  it('fires at the right instants: steps, lists, names, a zone east of UTC', () => {
    const after = new Date('2025-01-01T00:00:30Z');
    expect(iso(nextFires(schedule('*/15 * * * *'), 'UTC', after, 3))).toEqual([
      '2025-01-01T00:15:00.000Z',
      '2025-01-01T00:30:00.000Z',
      '2025-01-01T00:45:00.000Z',
    ]);
    // 09:00 on weekdays in Shanghai (UTC+8) is 01:00 UTC; 1 January 2025 was a Wednesday.
    expect(iso(nextFires(schedule('0 9 * * mon-fri'), 'Asia/Shanghai', after, 3))).toEqual([
      '2025-01-01T01:00:00.000Z',
      '2025-01-02T01:00:00.000Z',
      '2025-01-03T01:00:00.000Z',
    ]);
    // Day of month or day of week when both are given (classic cron).
    expect(iso(nextFires(schedule('0 0 13 * 5'), 'UTC', after, 2))).toEqual([
      '2025-01-03T00:00:00.000Z',
      '2025-01-10T00:00:00.000Z',
    ]);
    expect(iso(nextFires(schedule('0 0 29 2 *'), 'UTC', after, 1))).toEqual(['2028-02-29T00:00:00.000Z']);
    expect(nextFires(schedule('0 0 31 2 *'), 'UTC', after, 1)).toEqual([]);
  });

  it('skips a time the clock jumps over and fires once in an hour that repeats', () => {
    // New York: 9 March 2025 02:00 → 03:00; 2 November 2025 01:00–02:00 twice.
    const spring = nextFires(schedule('30 2 * * *'), 'America/New_York', new Date('2025-03-08T12:00:00Z'), 2);
    expect(iso(spring)).toEqual(['2025-03-10T06:30:00.000Z', '2025-03-11T06:30:00.000Z']);
    const autumn = nextFires(schedule('30 1 * * *'), 'America/New_York', new Date('2025-11-01T12:00:00Z'), 2);
    expect(iso(autumn)).toEqual(['2025-11-02T05:30:00.000Z', '2025-11-03T06:30:00.000Z']);
  });
});
