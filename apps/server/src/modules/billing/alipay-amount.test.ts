import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALIPAY_MAX_FEN, AlipayAmountError, fenToYuan, yuanToFen } from './alipay-amount.ts';

describe('fenToYuan', () => {
  it('writes exactly two decimals', () => {
    expect(fenToYuan(1)).toBe('0.01');
    expect(fenToYuan(10)).toBe('0.10');
    expect(fenToYuan(29)).toBe('0.29');
    expect(fenToYuan(100)).toBe('1.00');
    expect(fenToYuan(1234)).toBe('12.34');
    expect(fenToYuan(ALIPAY_MAX_FEN)).toBe('100000000.00');
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, ALIPAY_MAX_FEN + 1, Number.MAX_SAFE_INTEGER + 2])(
    'refuses %s',
    (fen) => {
      expect(() => fenToYuan(fen)).toThrow(AlipayAmountError);
    },
  );
});

describe('yuanToFen', () => {
  it('reads two-decimal amounts without a float', () => {
    expect(yuanToFen('0.01')).toBe(1);
    expect(yuanToFen('0.29')).toBe(29);
    expect(yuanToFen('1.10')).toBe(110);
    expect(yuanToFen('88.88')).toBe(8888);
    expect(yuanToFen('100000000.00')).toBe(ALIPAY_MAX_FEN);
  });

  it.each([
    '',
    '1',
    '1.',
    '1.0',
    '1.000',
    '.50',
    '01.00',
    '-1.00',
    '+1.00',
    ' 1.00',
    '1.00 ',
    '1,000.00',
    '1e2',
    '0x10.00',
    '１.００',
    '0.00',
    '100000000.01',
    '999999999.99',
    '1000000000.00',
  ])('refuses %j', (yuan) => {
    expect(() => yuanToFen(yuan)).toThrow(AlipayAmountError);
  });

  it('refuses a value that is not a string at all', () => {
    expect(() => yuanToFen(12.34 as unknown as string)).toThrow(AlipayAmountError);
  });

  it('round-trips every allowed amount, and the string form is canonical', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: ALIPAY_MAX_FEN }), (fen) => {
        const yuan = fenToYuan(fen);
        expect(yuan).toMatch(/^(0|[1-9][0-9]*)\.[0-9]{2}$/);
        expect(yuanToFen(yuan)).toBe(fen);
      }),
    );
  });

  it('agrees with integer arithmetic on the two parts', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), fc.integer({ min: 0, max: 99 }), (whole, cents) => {
        const fen = whole * 100 + cents;
        fc.pre(fen >= 1 && fen <= ALIPAY_MAX_FEN);
        expect(yuanToFen(`${whole}.${String(cents).padStart(2, '0')}`)).toBe(fen);
      }),
    );
  });
});
