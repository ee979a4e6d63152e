import dayjs, { type Dayjs } from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { activeTimezone, storePreferredTimezone } from './timezone.ts';

// Loaded only by pages that show times in the person's zone, never by /login.
dayjs.extend(utc);
dayjs.extend(timezone);

/** An ISO time in the person's zone (settings → timezone, else this device's). */
export function userTime(iso: string | Date): Dayjs {
  return dayjs(iso).tz(activeTimezone());
}

/** Applies a zone choice (null: this device's zone) to storage, the request header and dayjs.tz. */
export function applyTimezone(zone: string | null): void {
  storePreferredTimezone(zone);
  dayjs.tz.setDefault(activeTimezone());
}
