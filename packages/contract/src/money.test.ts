import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatFen, formatMillifen } from './money.ts';

describe('money formatting', () => {
  it('formats fen and milli-fen without a float', () => {
    expect(formatFen(1234)).toBe('¥12.34');
    expect(formatFen(-5)).toBe('-¥0.05');
    expect(formatMillifen(80)).toBe('¥0.0008');
    expect(formatMillifen(123_450)).toBe('¥1.2345');
    expect(formatMillifen(0)).toBe('¥0.00');
    expect(formatMillifen(1)).toBe('¥0.00001');
    expect(formatMillifen(-2_500)).toBe('-¥0.025');
    expect(formatMillifen(123_456_789_000, 'en')).toBe('¥1,234,567.89');
  });

  it('reads back to the same milli-fen for any amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 48), max: 2 ** 48 }), (millifen) => {
        const text = formatMillifen(millifen, 'en').replace(/[¥,]/g, '');
        const [whole, decimals = ''] = text.replace('-', '').split('.');
        const value = BigInt(whole) * 100_000n + BigInt(decimals.padEnd(5, '0'));
        expect((text.startsWith('-') ? -value : value) === BigInt(millifen)).toBe(true);
      }),
    );
  });
});
