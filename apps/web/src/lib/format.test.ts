import { describe, expect, it } from 'vitest';
import { formatBytes, formatClock, formatFen } from './format.ts';

describe('formatFen', () => {
  it.each([
    [1234, '¥12.34'],
    [0, '¥0.00'],
    [5, '¥0.05'],
    [100, '¥1.00'],
    [123456789, '¥1,234,567.89'],
    [-5, '-¥0.05'],
  ])('%i fen → %s', (fen, text) => {
    expect(formatFen(fen)).toBe(text);
  });
});

describe('formatBytes', () => {
  it.each([
    [920, '920 B'],
    [2048, '2 KB'],
    [3.5 * 1024 * 1024, '3.5 MB'],
    [2.25 * 1024 * 1024 * 1024, '2.3 GB'],
  ])('%i bytes → %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});

describe('formatClock', () => {
  it.each([
    [0, '0:00'],
    [7, '0:07'],
    [62, '1:02'],
    [3723, '1:02:03'],
    [6.6, '0:07'],
  ])('%s s → %s', (seconds, text) => {
    expect(formatClock(seconds)).toBe(text);
  });
});
