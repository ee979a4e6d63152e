/**
 * Money is integer fen everywhere: in the database, the API, the server and the browser. Formats
 * it as CNY without going through a float: 1234 → ¥12.34, 123456789 → ¥1,234,567.89, -5 → -¥0.05.
 */
export function formatFen(fen: number, locale = 'zh-CN'): string {
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(fen));
  const yuan = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(Math.floor(abs / 100));
  const cents = String(abs % 100).padStart(2, '0');
  return `${sign}¥${yuan}.${cents}`;
}

/**
 * Formats milli-fen (1/1000 fen, the unit of model prices and fees) as CNY with as many decimals
 * as it needs, two to five, again without a float: 80 → ¥0.0008, 123_450 → ¥1.2345, 0 → ¥0.00.
 */
export function formatMillifen(millifen: number, locale = 'zh-CN'): string {
  const sign = millifen < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(millifen));
  const fen = Math.floor(abs / 1000);
  const fraction = String(abs % 1000)
    .padStart(3, '0')
    .replace(/0+$/, '');
  const whole = formatFen(fen, locale).slice(1);
  return `${sign}¥${whole}${fraction}`;
}

/**
 * Milli-fen as the whole fen a person is shown when money is short (MODEL_BALANCE_INSUFFICIENT):
 * what the team has is rounded down and what it needs is rounded up, so the message never shows a
 * sub-fen amount and never reads as if there were enough. Fees and prices keep their sub-fen
 * digits (formatMillifen).
 */
export function millifenToFen(millifen: number, rounding: 'down' | 'up'): number {
  const fen = millifen / 1000;
  return rounding === 'down' ? Math.floor(fen) : Math.ceil(fen);
}
