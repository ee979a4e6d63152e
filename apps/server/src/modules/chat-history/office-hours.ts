import type { OfficeHours } from '@athena/contract';

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/**
 * Whether `at` falls in the office hours, in their time zone: on one of their days, from `start`
 * up to (not including) `end`. An end before the start runs past midnight (22:00–06:00), counted
 * on the day it starts. An unknown time zone counts as UTC.
 */
export function isOfficeTime(hours: OfficeHours, at: Date): boolean {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone: hours.timezone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(at);
  } catch {
    return isOfficeTime({ ...hours, timezone: 'UTC' }, at);
  }
  const part = (type: string) => parts.find((entry) => entry.type === type)?.value ?? '';
  const day = WEEKDAYS.indexOf(part('weekday'));
  const minute = Number(part('hour')) * 60 + Number(part('minute'));
  const toMinutes = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));
  const start = toMinutes(hours.start);
  const end = toMinutes(hours.end);
  if (start === end) return false;
  if (start < end) return hours.days.includes(day) && minute >= start && minute < end;
  // Overnight: the evening part belongs to today, the morning part to yesterday.
  if (minute >= start) return hours.days.includes(day);
  return minute < end && hours.days.includes((day + 6) % 7);
}
