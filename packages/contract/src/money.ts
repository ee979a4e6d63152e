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
