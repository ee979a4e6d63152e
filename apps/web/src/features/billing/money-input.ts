import { RECHARGE_LIMITS } from '@athena/contract';

/**
 * Amounts typed in yuan, read into integers without a float (docs/billing.md: money never becomes
 * a float in the browser). "12.34" → 1234 fen; "0.0008" → 80 milli-fen. The digits are joined as
 * text and only then made a number, so 0.1 + 0.2 never happens.
 */

/** Decimal places of each unit: fen are 1/100 yuan, milli-fen 1/100 000 yuan. */
const FEN_DECIMALS = 2;
const MILLIFEN_DECIMALS = 5;

/** Longest whole part read: more digits than any amount the product takes, well within 2^53. */
const MAX_WHOLE_DIGITS = 10;

const UNSIGNED = /^(\d*)(?:\.(\d*))?$/;

/**
 * A typed yuan amount in units of 10^-decimals yuan, or null when it is not one: empty, more
 * decimals than the unit has, letters, thousands separators, a sign where none is allowed.
 */
function parseYuan(typed: string, decimals: number, signed: boolean): number | null {
  let text = typed.trim();
  let negative = false;
  if (signed && (text.startsWith('-') || text.startsWith('+'))) {
    negative = text.startsWith('-');
    text = text.slice(1);
  }
  const match = UNSIGNED.exec(text);
  if (!match) return null;
  const whole = match[1];
  const fraction = match[2] ?? '';
  if (whole === '' && fraction === '') return null;
  if (fraction.length > decimals || whole.length > MAX_WHOLE_DIGITS) return null;
  const digits = `${whole}${fraction.padEnd(decimals, '0')}`;
  const value = Number(digits);
  if (!Number.isSafeInteger(value)) return null;
  // `-0` would print as "0" but compare oddly; a typed "-0" is zero.
  return negative && value !== 0 ? -value : value;
}

/** "12.34" → 1234; at most 2 decimals; null when not an amount. */
export const parseYuanToFen = (typed: string) => parseYuan(typed, FEN_DECIMALS, false);

/** "-5", "+12.5" → -500, 1250: an operator's correction may go either way. */
export const parseSignedYuanToFen = (typed: string) => parseYuan(typed, FEN_DECIMALS, true);

/** A price per 1 000 tokens: "0.0008" → 80 milli-fen; at most 5 decimals. */
export const parseYuanToMillifen = (typed: string) => parseYuan(typed, MILLIFEN_DECIMALS, false);

/** An integer amount written back as the yuan an input shows: 1234 → "12.34", 1000 → "10", 80 → "0.0008" (milli-fen). */
function toYuanText(amount: number, decimals: number): string {
  const sign = amount < 0 ? '-' : '';
  const digits = String(Math.abs(Math.trunc(amount))).padStart(decimals + 1, '0');
  const whole = digits.slice(0, -decimals);
  const fraction = digits.slice(-decimals).replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

export const fenToYuanText = (fen: number) => toYuanText(fen, FEN_DECIMALS);
export const millifenToYuanText = (millifen: number) => toYuanText(millifen, MILLIFEN_DECIMALS);

/** Why a typed recharge amount cannot be sent (the server's rule: whole fen, min..max), or null. */
export function rechargeAmountProblem(typed: string): 'format' | 'range' | null {
  const fen = parseYuanToFen(typed);
  if (fen === null) return 'format';
  if (fen < RECHARGE_LIMITS.minFen || fen > RECHARGE_LIMITS.maxFen) return 'range';
  return null;
}
