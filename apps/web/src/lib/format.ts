/**
 * Money is integer fen everywhere, in the API and in the app. Formats it as CNY without going through a
 * float: 1234 → ¥12.34, 123456789 → ¥1,234,567.89, -5 → -¥0.05.
 */
export function formatFen(fen: number, locale = 'zh-CN'): string {
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(fen));
  const yuan = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(Math.floor(abs / 100));
  const cents = String(abs % 100).padStart(2, '0');
  return `${sign}¥${yuan}.${cents}`;
}

/** "2.3 GB", "12.5 MB", "830 KB", "920 B": a file's size the way people read it. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024 / 1024).toFixed(1)} GB`;
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

/** A duration in seconds as a clock: 7 → "0:07", 62 → "1:02", 3723 → "1:02:03". */
export function formatClock(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
