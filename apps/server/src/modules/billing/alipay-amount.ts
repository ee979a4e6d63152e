/**
 * Alipay speaks amounts as yuan strings with exactly two decimals ("12.34"); we keep integer fen.
 * The conversion is pure string work: a float would turn 0.29 yuan into 28.999999999999996 fen.
 */

/** Alipay's ceiling for `total_amount` and `refund_amount`: [0.01, 100000000] yuan. */
export const ALIPAY_MAX_FEN = 10_000_000_000;

export class AlipayAmountError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AlipayAmountError';
  }
}

/** 1234 → "12.34". Refuses non-integers, zero, negatives and anything above Alipay's ceiling. */
export function fenToYuan(fen: number): string {
  if (!Number.isSafeInteger(fen) || fen < 1 || fen > ALIPAY_MAX_FEN) {
    throw new AlipayAmountError(`amount must be an integer from 1 to ${ALIPAY_MAX_FEN} fen, got ${fen}`);
  }
  const digits = String(fen).padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

// No sign, no exponent, no leading zeros, no thousands separators, exactly two decimals.
const YUAN = /^(0|[1-9][0-9]{0,8})\.([0-9]{2})$/;

/** "12.34" → 1234. Refuses anything that is not exactly two decimals, zero, or above the ceiling. */
export function yuanToFen(yuan: string): number {
  const match = typeof yuan === 'string' ? YUAN.exec(yuan) : null;
  if (!match) throw new AlipayAmountError(`not an Alipay amount with two decimals: ${JSON.stringify(yuan)}`);
  // Concatenating the digits is multiplying by 100 without arithmetic; the result is a safe integer.
  const fen = Number(`${match[1]}${match[2]}`);
  if (fen < 1 || fen > ALIPAY_MAX_FEN) {
    throw new AlipayAmountError(`amount out of Alipay's range [0.01, 100000000.00]: ${yuan}`);
  }
  return fen;
}
