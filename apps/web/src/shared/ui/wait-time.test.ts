import { describe, expect, it } from 'vitest';
import { waitTime } from './wait-time.ts';

describe('waitTime', () => {
  it('shows minutes and seconds within an hour', () => {
    expect(waitTime(60)).toBe('1:00');
    expect(waitTime(845)).toBe('14:05');
    expect(waitTime(3599)).toBe('59:59');
  });

  it('puts hours in front from an hour on, up to the daily cap', () => {
    expect(waitTime(3600)).toBe('1:00:00');
    expect(waitTime(3661)).toBe('1:01:01');
    expect(waitTime(86_399)).toBe('23:59:59');
    expect(waitTime(86_400)).toBe('24:00:00');
  });

  it('never shows less than nothing', () => {
    expect(waitTime(0)).toBe('0:00');
    expect(waitTime(-5)).toBe('0:00');
  });
});
