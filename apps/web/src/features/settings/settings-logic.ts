import type { Language, Settings } from '@athena/contract';
import { detectLocale, type Locale } from '../../lib/locale.ts';

/** Select values standing for the settings' null ("let the device decide"). */
export const FOLLOW_BROWSER = '@browser';
export const FOLLOW_DEVICE = '@device';
export const LAST_USED_SPACE = '@last';

/**
 * Which language a setting asks for. null means the device decides (its stored choice, else the
 * browser language) — so a server-side null never overrides what this device was told.
 */
export function localeForSetting(
  language: Language | null,
  stored: string | null,
  navigatorLanguages: readonly string[],
): Locale {
  return language ?? detectLocale(stored, navigatorLanguages);
}

/** "UTC+08:00", "UTC-03:30", "UTC+00:00" — the zone's offset at `at`. */
export function utcOffsetLabel(zone: string, at: Date): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  // Runtimes write zero as "GMT" or "GMT+00:00"; say it one way.
  return `UTC${part?.replace(/^GMT/, '') || '+00:00'}`;
}

/** Minutes east of UTC parsed from a utcOffsetLabel, for sorting. */
const offsetMinutes = (label: string) => {
  const match = /UTC([+-])(\d{2}):(\d{2})/.exec(label);
  if (!match) return 0;
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
};

export interface TimezoneOption {
  value: string;
  label: string;
  offset: string;
}

/** Every zone with its current offset, west to east, then by name: "(UTC+08:00) Asia/Shanghai". */
export function timezoneOptions(zones: readonly string[], at: Date): TimezoneOption[] {
  return zones
    .map((zone) => {
      const offset = utcOffsetLabel(zone, at);
      return { value: zone, offset, label: `(${offset}) ${zone.replaceAll('_', ' ')}`, minutes: offsetMinutes(offset) };
    })
    .sort((a, b) => a.minutes - b.minutes || a.value.localeCompare(b.value))
    .map(({ minutes: _, ...option }) => option);
}

/** The zones the runtime knows, with UTC always present (older runtimes list none). */
export function supportedTimezones(): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return zones.includes('UTC') ? zones : [...zones, 'UTC'];
}

/** Search "shanghai", "new york", "+08" or "utc+8" alike. */
export function matchesTimezone(search: string, option: { value: string; label: string }): boolean {
  const normalise = (text: string) => text.toLowerCase().replace(/[\s_]+/g, ' ');
  const needle = normalise(search.trim());
  if (!needle) return true;
  const haystack = normalise(`${option.label} ${option.value}`);
  if (haystack.includes(needle)) return true;
  // "+8" / "utc+8" should find "+08:00".
  const offset = /^(?:utc|gmt)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(needle);
  if (!offset) return false;
  const padded = `${offset[1]}${offset[2].padStart(2, '0')}:${offset[3] ?? '00'}`;
  return haystack.includes(`utc${padded}`);
}

/** Settings as the form shows them (null becomes its "follow" sentinel) and back. */
export interface SettingsFormValues {
  language: string;
  timezone: string;
  theme: Settings['theme'];
  default_space_id: string;
}

export const toFormValues = (settings: Settings): SettingsFormValues => ({
  language: settings.language ?? FOLLOW_BROWSER,
  timezone: settings.timezone ?? FOLLOW_DEVICE,
  theme: settings.theme,
  default_space_id: settings.default_space_id ?? LAST_USED_SPACE,
});

/** One changed form field as a settingsUpdate patch. */
export function toPatch<K extends keyof SettingsFormValues>(key: K, value: SettingsFormValues[K]): Partial<Settings> {
  switch (key) {
    case 'language':
      return { language: value === FOLLOW_BROWSER ? null : (value as Language) };
    case 'timezone':
      return { timezone: value === FOLLOW_DEVICE ? null : value };
    case 'default_space_id':
      return { default_space_id: value === LAST_USED_SPACE ? null : value };
    default:
      return { theme: value as Settings['theme'] };
  }
}
