import { describe, expect, it } from 'vitest';
import { resolveTheme } from '../../stores/appearance-store.ts';
import {
  FOLLOW_BROWSER,
  FOLLOW_DEVICE,
  LAST_USED_SPACE,
  localeForSetting,
  matchesTimezone,
  timezoneOptions,
  toFormValues,
  toPatch,
  utcOffsetLabel,
} from './settings-logic.ts';

describe('resolveTheme', () => {
  it('uses the choice, or the system for "system"', () => {
    expect(resolveTheme('dark', false)).toBe('dark');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
  });
});

describe('localeForSetting', () => {
  it('a saved language wins over the device', () => {
    expect(localeForSetting('en', 'zh-CN', ['zh-CN'])).toBe('en');
  });
  it('null lets the device decide: its stored choice, else the browser language', () => {
    expect(localeForSetting(null, 'zh-TW', ['en-US'])).toBe('zh-TW');
    expect(localeForSetting(null, null, ['en-US'])).toBe('en');
    expect(localeForSetting(null, null, ['zh-HK'])).toBe('zh-TW');
    expect(localeForSetting(null, null, [])).toBe('zh-CN');
  });
});

describe('time zones', () => {
  const winter = new Date('2026-01-15T12:00:00Z');
  const summer = new Date('2026-07-15T12:00:00Z');

  it('labels offsets, including daylight saving and half hours', () => {
    expect(utcOffsetLabel('Asia/Shanghai', winter)).toBe('UTC+08:00');
    expect(utcOffsetLabel('UTC', winter)).toBe('UTC+00:00');
    expect(utcOffsetLabel('America/New_York', winter)).toBe('UTC-05:00');
    expect(utcOffsetLabel('America/New_York', summer)).toBe('UTC-04:00');
    expect(utcOffsetLabel('Asia/Kolkata', winter)).toBe('UTC+05:30');
  });

  it('sorts west to east, then by name, with readable labels', () => {
    const options = timezoneOptions(['Asia/Shanghai', 'UTC', 'America/New_York', 'Asia/Hong_Kong'], winter);
    expect(options.map((o) => o.value)).toEqual(['America/New_York', 'UTC', 'Asia/Hong_Kong', 'Asia/Shanghai']);
    expect(options[0].label).toBe('(UTC-05:00) America/New York');
  });

  it('finds zones by name, with spaces or underscores, and by offset', () => {
    const option = { value: 'America/New_York', label: '(UTC-05:00) America/New York' };
    expect(matchesTimezone('new york', option)).toBe(true);
    expect(matchesTimezone('New_York', option)).toBe(true);
    expect(matchesTimezone('-5', option)).toBe(true);
    expect(matchesTimezone('utc-05:00', option)).toBe(true);
    expect(matchesTimezone('+8', option)).toBe(false);
    expect(matchesTimezone('shanghai', option)).toBe(false);
    expect(matchesTimezone('', option)).toBe(true);
  });
});

describe('form values ↔ settings', () => {
  it('shows null as "follow" and turns it back into null', () => {
    const values = toFormValues({ language: null, timezone: null, theme: 'system', default_space_id: null });
    expect(values).toEqual({
      language: FOLLOW_BROWSER,
      timezone: FOLLOW_DEVICE,
      theme: 'system',
      default_space_id: LAST_USED_SPACE,
    });
    expect(toPatch('language', FOLLOW_BROWSER)).toEqual({ language: null });
    expect(toPatch('timezone', FOLLOW_DEVICE)).toEqual({ timezone: null });
    expect(toPatch('default_space_id', LAST_USED_SPACE)).toEqual({ default_space_id: null });
  });

  it('passes real choices through', () => {
    expect(toPatch('language', 'en')).toEqual({ language: 'en' });
    expect(toPatch('timezone', 'Europe/Berlin')).toEqual({ timezone: 'Europe/Berlin' });
    expect(toPatch('theme', 'dark')).toEqual({ theme: 'dark' });
    expect(toPatch('default_space_id', 'abc')).toEqual({ default_space_id: 'abc' });
  });
});
