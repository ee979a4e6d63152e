import { PROFILE_LIMITS, type ProfileFieldType } from '@athena/contract';

/** A value as stored: canonical text, and typed for numbers and dates so a search compares them as such. */
export interface CanonicalValue {
  value: string;
  number: string | null;
  date: string | null;
}

export type Checked =
  | { kind: 'empty' }
  | { kind: 'value'; value: CanonicalValue }
  | { kind: 'invalid'; expected: Exclude<ProfileFieldType, 'text'> };

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A decimal as digits: no exponent, no leading zeros, no trailing zeros after the point, no minus
 * on zero (`+012.50` → `12.5`). Done on the text, so no digit is lost to floating point.
 */
export function canonicalNumber(input: string): string | null {
  const match = DECIMAL.exec(input);
  if (!match) return null;
  const [, sign, whole = '', fraction = ''] = match;
  if (whole === '' && fraction === '') return null;
  const digits = whole.replace(/^0+/, '') || '0';
  const decimals = fraction.replace(/0+$/, '');
  const body = decimals ? `${digits}.${decimals}` : digits;
  return sign === '-' && body !== '0' ? `-${body}` : body;
}

/** `YYYY-MM-DD` of a day that exists (no 2026-02-30), years 1 to 9999. */
export function canonicalDate(input: string): string | null {
  const match = DATE.exec(input);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return null;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return day <= days ? input : null;
}

/** A value checked against its field: trimmed, empty (clear it), canonical, or what was expected instead. */
export function checkValue(field: { type: ProfileFieldType; options: string[] }, raw: string | null): Checked {
  const input = (raw ?? '').trim();
  if (input === '') return { kind: 'empty' };
  switch (field.type) {
    case 'number': {
      const number = canonicalNumber(input);
      return number === null
        ? { kind: 'invalid', expected: 'number' }
        : { kind: 'value', value: { value: number, number, date: null } };
    }
    case 'date': {
      const date = canonicalDate(input);
      return date === null
        ? { kind: 'invalid', expected: 'date' }
        : { kind: 'value', value: { value: date, number: null, date } };
    }
    case 'select':
      return field.options.includes(input)
        ? { kind: 'value', value: { value: input, number: null, date: null } }
        : { kind: 'invalid', expected: 'select' };
    default:
      return { kind: 'value', value: { value: input.slice(0, PROFILE_LIMITS.textValue), number: null, date: null } };
  }
}

/** A select field's choices, trimmed by the contract: at least one, at most the limit, none twice. */
export function optionsValid(options: string[]) {
  return options.length >= 1 && options.length <= PROFILE_LIMITS.options && new Set(options).size === options.length;
}
