import { describe, expect, it } from 'vitest';
import { isOfficeTime } from './office-hours.ts';

const weekdays = { start: '09:00', end: '18:00', days: [1, 2, 3, 4, 5], timezone: 'Asia/Shanghai' };

describe('office hours', () => {
  it('reads the time in the office time zone', () => {
    // 2026-11-26 is a Thursday. 01:30 UTC is 09:30 in Shanghai.
    expect(isOfficeTime(weekdays, new Date('2026-11-26T01:30:00Z'))).toBe(true);
    expect(isOfficeTime(weekdays, new Date('2026-11-26T00:59:00Z'))).toBe(false);
    expect(isOfficeTime(weekdays, new Date('2026-11-26T10:00:00Z'))).toBe(false); // 18:00: the end is out
    expect(isOfficeTime(weekdays, new Date('2026-11-28T02:00:00Z'))).toBe(false); // Saturday
  });

  it('runs an end before the start past midnight, on the day it started', () => {
    const nights = { start: '22:00', end: '06:00', days: [5], timezone: 'UTC' };
    expect(isOfficeTime(nights, new Date('2026-11-27T23:00:00Z'))).toBe(true); // Friday night
    expect(isOfficeTime(nights, new Date('2026-11-28T05:59:00Z'))).toBe(true); // Saturday morning, Friday's shift
    expect(isOfficeTime(nights, new Date('2026-11-28T23:00:00Z'))).toBe(false); // Saturday night
  });

  it('takes an unknown zone as UTC, and equal start and end as never', () => {
    expect(isOfficeTime({ ...weekdays, timezone: 'Mars/Olympus' }, new Date('2026-11-26T09:30:00Z'))).toBe(true);
    expect(isOfficeTime({ ...weekdays, end: '09:00' }, new Date('2026-11-26T01:30:00Z'))).toBe(false);
  });
});
