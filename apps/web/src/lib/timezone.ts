import { STORAGE_KEYS } from './storage-keys.ts';

/** This device's IANA zone. */
export const deviceTimezone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** True when the runtime knows the zone (an unknown one would make every date call throw). */
export function isValidTimezone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const read = () => (typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEYS.timezone));

/** The person's chosen zone (from their settings), or null to follow the device. */
export function preferredTimezone(): string | null {
  const zone = read();
  return zone && isValidTimezone(zone) ? zone : null;
}

/**
 * The zone times are shown in and sent as the `timezone` header. No dayjs here: the API client
 * sits on the /login path, which has a size budget.
 */
export const activeTimezone = (): string => preferredTimezone() ?? deviceTimezone();

/** Remembers (or, with null, forgets) the chosen zone on this device. */
export function storePreferredTimezone(zone: string | null): void {
  if (zone && isValidTimezone(zone)) localStorage.setItem(STORAGE_KEYS.timezone, zone);
  else localStorage.removeItem(STORAGE_KEYS.timezone);
}
