import { describe, expect, it } from 'vitest';
import { formatFen } from './format.ts';

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
