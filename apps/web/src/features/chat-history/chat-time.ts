import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * How long ago a conversation last moved, in the words a chat list uses (requirements.md,
 * Languages: relative wording): just now, minutes, hours today, yesterday, days this week, then a
 * date. Day boundaries are the person's (their time zone), not the server's.
 */
export type ListTime =
  | { kind: 'justNow' }
  | { kind: 'minutes'; count: number }
  | { kind: 'hours'; count: number }
  | { kind: 'yesterday' }
  | { kind: 'days'; count: number }
  | { kind: 'date'; sameYear: boolean };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export function listTimeOf(iso: string, nowMs: number, zone: string): ListTime {
  // A clock a little ahead on the server must not make a message read as from the future.
  const at = Math.min(dayjs(iso).valueOf(), nowMs);
  const ago = nowMs - at;
  if (ago < MINUTE) return { kind: 'justNow' };
  if (ago < HOUR) return { kind: 'minutes', count: Math.floor(ago / MINUTE) };
  const days = dayDistance(at, nowMs, zone);
  if (days === 0) return { kind: 'hours', count: Math.floor(ago / HOUR) };
  if (days === 1) return { kind: 'yesterday' };
  if (days < 7) return { kind: 'days', count: days };
  return { kind: 'date', sameYear: dayjs(at).tz(zone).year() === dayjs(nowMs).tz(zone).year() };
}

/** Calendar days between two instants in a zone: 0 the same day, 1 yesterday. */
export function dayDistance(atMs: number, nowMs: number, zone: string): number {
  const day = (ms: number) => dayjs(ms).tz(zone).format('YYYY-MM-DD');
  // Date-only strings parse as UTC midnights, so their difference is whole days, DST or not.
  return Math.round((Date.parse(day(nowMs)) - Date.parse(day(atMs))) / 86_400_000);
}

/** The calendar day of an instant in a zone ("2026-05-03"), to put a separator where it changes. */
export const dayKeyOf = (iso: string, zone: string) => dayjs(iso).tz(zone).format('YYYY-MM-DD');

/** "14:05" in the zone. */
export const clockOf = (iso: string, zone: string) => dayjs(iso).tz(zone).format('HH:mm');

/** "2026-05-03 14:05:09" in the zone, for tooltips. */
export const fullTimeOf = (iso: string, zone: string) => dayjs(iso).tz(zone).format('YYYY-MM-DD HH:mm:ss');

/** A date in the UI language: "5月3日" / "May 3" this year, "2025/5/3" / "5/3/2025" before. */
export function dateOf(iso: string, zone: string, locale: string, sameYear: boolean): string {
  const options: Intl.DateTimeFormatOptions = sameYear
    ? { month: 'short', day: 'numeric', timeZone: zone }
    : { year: 'numeric', month: 'numeric', day: 'numeric', timeZone: zone };
  return new Intl.DateTimeFormat(locale, options).format(new Date(iso));
}

/** A thread's day separator beyond yesterday: "2026年5月3日星期日" / "Sunday, May 3, 2026". */
export const longDateOf = (iso: string, zone: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: zone }).format(new Date(iso));
