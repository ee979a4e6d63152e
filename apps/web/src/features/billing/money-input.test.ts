import { formatFen, formatMillifen } from '@athena/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fenToYuanText,
  millifenToYuanText,
  parseSignedYuanToFen,
  parseYuanToFen,
  parseYuanToMillifen,
  rechargeAmountProblem,
} from './money-input.ts';

describe('yuan typed → fen', () => {
  it('reads whole yuan and up to two decimals exactly', () => {
    expect(parseYuanToFen('12.34')).toBe(1234);
    expect(parseYuanToFen('0.1')).toBe(10);
    expect(parseYuanToFen('0.07')).toBe(7);
    expect(parseYuanToFen(' 100 ')).toBe(10_000);
    expect(parseYuanToFen('12.')).toBe(1200);
    expect(parseYuanToFen('.5')).toBe(50);
    expect(parseYuanToFen('0')).toBe(0);
    // The classic float trap: 0.29 * 100 is 28.999999999999996.
    expect(parseYuanToFen('0.29')).toBe(29);
    expect(parseYuanToFen('1.13')).toBe(113);
  });

  it('refuses what is not an amount', () => {
    for (const typed of ['', ' ', '.', 'abc', '1,000', '12.345', '-5', '+5', '1e3', '１２', '12.3.4', '99999999999']) {
      expect(parseYuanToFen(typed), typed).toBeNull();
    }
  });

  it('takes a sign only where a correction may go both ways', () => {
    expect(parseSignedYuanToFen('-5')).toBe(-500);
    expect(parseSignedYuanToFen('+0.01')).toBe(1);
    expect(parseSignedYuanToFen('-0')).toBe(0);
    expect(parseSignedYuanToFen('--1')).toBeNull();
  });

  it('says why a recharge amount cannot be sent, with the server’s limits', () => {
    expect(rechargeAmountProblem('12.34')).toBeNull();
    expect(rechargeAmountProblem('1')).toBeNull();
    expect(rechargeAmountProblem('50000')).toBeNull();
    expect(rechargeAmountProblem('0.99')).toBe('range');
    expect(rechargeAmountProblem('50000.01')).toBe('range');
    expect(rechargeAmountProblem('1.234')).toBe('format');
  });

  it('round-trips every fen amount through the text an input shows', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000_000 }), (fen) => {
        expect(parseYuanToFen(fenToYuanText(fen))).toBe(fen);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }), (fen) => {
        expect(parseSignedYuanToFen(fenToYuanText(fen))).toBe(fen);
      }),
    );
  });

  it('reads what formatFen writes (without the ¥ and separators) back to the same fen', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), (fen) => {
        const shown = formatFen(fen, 'en').replace(/[¥,]/g, '');
        expect(parseYuanToFen(shown)).toBe(fen);
      }),
    );
  });
});

describe('yuan per 1 000 tokens → milli-fen', () => {
  it('reads up to five decimals exactly', () => {
    expect(parseYuanToMillifen('0.0008')).toBe(80);
    expect(parseYuanToMillifen('0.00001')).toBe(1);
    expect(parseYuanToMillifen('1.2345')).toBe(123_450);
    expect(parseYuanToMillifen('100')).toBe(10_000_000);
    expect(parseYuanToMillifen('0.000001')).toBeNull();
  });

  it('round-trips every price, and agrees with formatMillifen', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), (millifen) => {
        expect(parseYuanToMillifen(millifenToYuanText(millifen))).toBe(millifen);
        expect(parseYuanToMillifen(formatMillifen(millifen, 'en').replace(/[¥,]/g, ''))).toBe(millifen);
      }),
    );
  });

  it('writes the shortest text for an input', () => {
    expect(millifenToYuanText(80)).toBe('0.0008');
    expect(millifenToYuanText(0)).toBe('0');
    expect(fenToYuanText(1000)).toBe('10');
    expect(fenToYuanText(1234)).toBe('12.34');
    expect(fenToYuanText(-5)).toBe('-0.05');
  });
});
