import {
  formatMessage,
  type Language,
  PROFILE_EXPECTED_LABELS,
  PROFILE_LIMITS,
  type ProfileChange,
  type ProfileField,
  type ProfileFieldType,
} from '@athena/contract';
import dayjs from 'dayjs';

const DECIMAL = /^[+-]?(\d*)(?:\.(\d*))?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Digits with an optional sign and point, at least one digit: the server writes it canonically. */
const isDecimal = (text: string) => {
  const match = DECIMAL.exec(text);
  return match !== null && `${match[1] ?? ''}${match[2] ?? ''}` !== '';
};

/** A real calendar day written as YYYY-MM-DD (not 2026-02-30). */
const isDay = (text: string) => DATE.test(text) && dayjs(text).format('YYYY-MM-DD') === text;

/**
 * A value as typed, checked the way the server checks it, so a mistake is said before anything is
 * sent — in the server's own words (PROFILE_VALUE_INVALID with its PROFILE_EXPECTED_LABELS, and
 * PROFILE_VALUE_REQUIRED). The trimmed text goes to the server, which stores it canonically. Null
 * means "clear".
 */
export function checkValue(
  field: ProfileField,
  typed: string | null,
  language: Language,
): { ok: true; value: string | null } | { ok: false; message: string } {
  const text = typed?.trim() ?? '';
  if (text === '') {
    return field.required
      ? { ok: false, message: formatMessage('PROFILE_VALUE_REQUIRED', language, { field: field.name }) }
      : { ok: true, value: null };
  }
  const invalid = (type: Exclude<ProfileFieldType, 'text'>) => {
    const separator = language === 'en' ? ', ' : '、';
    const expected = PROFILE_EXPECTED_LABELS[type][language].replace('{options}', field.options.join(separator));
    return {
      ok: false as const,
      message: formatMessage('PROFILE_VALUE_INVALID', language, { field: field.name, expected }),
    };
  };
  switch (field.type) {
    case 'number':
      return isDecimal(text) ? { ok: true, value: text } : invalid('number');
    case 'date':
      return isDay(text) ? { ok: true, value: text } : invalid('date');
    case 'select':
      return field.options.includes(text) ? { ok: true, value: text } : invalid('select');
    default:
      return text.length > PROFILE_LIMITS.textValue
        ? { ok: false, message: formatMessage('PROFILE_VALUE_TOO_LONG', language) }
        : { ok: true, value: text };
  }
}

/**
 * The changes that may be undone: per field, only its newest change, and only while it was not
 * undone already (the server refuses older ones with PROFILE_CHANGE_NOT_REVERTIBLE). `changes` are
 * newest first, as the history answers them.
 */
export function undoableIds(changes: readonly ProfileChange[]): Set<string> {
  const seen = new Set<string>();
  const out = new Set<string>();
  for (const change of changes) {
    if (seen.has(change.field_id)) continue;
    seen.add(change.field_id);
    if (change.reverted_by === null) out.add(change.id);
  }
  return out;
}

/** The choices of a select field as typed in the field form: trimmed, blanks and repeats dropped. */
export function cleanOptions(options: readonly string[]): string[] {
  return [...new Set(options.map((option) => option.trim()).filter((option) => option !== ''))];
}

/** Whether a select field's choices are what the contract accepts (1 to 50, each 1 to 50 characters). */
export const optionsValid = (options: readonly string[]) =>
  options.length >= 1 &&
  options.length <= PROFILE_LIMITS.options &&
  options.every((option) => option.length <= PROFILE_LIMITS.option);
