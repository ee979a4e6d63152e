import dayjs, { type Dayjs } from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * A picked range of calendar days as the audit filter's instants: from the start of the first day
 * to the end of the last, both in the person's time zone (which may differ from the browser's).
 */
export function dayRange(start: Dayjs, end: Dayjs, zone: string): { from: string; to: string } {
  return {
    from: dayjs.tz(start.format('YYYY-MM-DD'), zone).startOf('day').toISOString(),
    to: dayjs.tz(end.format('YYYY-MM-DD'), zone).endOf('day').toISOString(),
  };
}
