import {
  ATTACHMENT_MAX_BYTES,
  contactEmailField,
  contactNameField,
  contactPhoneField,
  customRequirementsField,
  customTitleField,
  ERRORS,
  type ErrorKey,
  expectedDateField,
  isErrorKey,
  type Language,
} from '@athena/contract';
import type { z } from 'zod';
import { formatBytes } from '../../lib/format.ts';

/** The contract's message for an error key, in the UI language. */
export const contractMessage = (key: ErrorKey, language: Language) => ERRORS[key].msg[language];

/**
 * Runs one contract field rule and answers its message (the server's own words) or null. Unknown
 * issues (which the form's controls make impossible) fall back to the generic error.
 */
export function fieldError(schema: z.ZodType, value: unknown, language: Language): string | null {
  const result = schema.safeParse(value);
  if (result.success) return null;
  const message = result.error.issues[0]?.message ?? '';
  return isErrorKey(message) ? contractMessage(message, language) : contractMessage('SYSTEM_ERROR', language);
}

export const FIELD_RULES = {
  title: customTitleField,
  requirements: customRequirementsField,
  contact_name: contactNameField,
  contact_phone: contactPhoneField,
  contact_email: contactEmailField,
  expected_date: expectedDateField,
} as const;
export type RuledField = keyof typeof FIELD_RULES;

/** "Phone or email": checked on the phone field, as the server reports it there too. */
export function contactError(phone: string | undefined, email: string | undefined, language: Language) {
  return phone?.trim() || email?.trim() ? null : contractMessage('CUSTOM_CONTACT_REQUIRED', language);
}

/** Where a server refusal belongs in the form (null: above the buttons). */
const FIELD_OF_CODE: Record<number, string> = {
  [ERRORS.CUSTOM_TITLE_INVALID.code]: 'title',
  [ERRORS.CUSTOM_REQUIREMENTS_INVALID.code]: 'requirements',
  [ERRORS.CUSTOM_CONTACT_NAME_INVALID.code]: 'contact_name',
  [ERRORS.CUSTOM_CONTACT_REQUIRED.code]: 'contact_phone',
  [ERRORS.PHONE_INVALID.code]: 'contact_phone',
  [ERRORS.CUSTOM_EMAIL_INVALID.code]: 'contact_email',
  [ERRORS.CUSTOM_DATE_INVALID.code]: 'expected_date',
  [ERRORS.ATTACHMENTS_TOO_MANY.code]: 'attachments',
  [ERRORS.NOT_FOUND.code]: 'attachments',
};
export const fieldOfCode = (code: unknown): string | null =>
  typeof code === 'number' ? (FIELD_OF_CODE[code] ?? null) : null;

const SIGNATURES = [
  [0x25, 0x50, 0x44, 0x46, 0x2d], // %PDF-
  [0x89, 0x50, 0x4e, 0x47], // PNG
  [0xff, 0xd8, 0xff], // JPEG
  [0x50, 0x4b, 0x03, 0x04], // ZIP (DOCX, XLSX; the server looks inside)
];

/**
 * The checks before an upload starts, with the server's messages: a known file signature (the
 * server makes the final, exact check) and at most 10 MB.
 */
export function precheckFile(file: { size: number }, head: Uint8Array, language: Language): string | null {
  if (file.size > ATTACHMENT_MAX_BYTES) return contractMessage('ATTACHMENT_TOO_LARGE', language);
  const known = SIGNATURES.some((signature) => signature.every((byte, index) => head[index] === byte));
  return known && file.size > 8 ? null : contractMessage('ATTACHMENT_INVALID', language);
}

// One formatter for every file size the app shows (lib/format.ts); re-exported for this feature's callers.
export { formatBytes };

/** A yuan amount typed by an operator (up to two decimals) as integer fen, never via float maths. */
export function yuanToFen(value: string | number | null | undefined): number | null {
  const text = String(value ?? '').trim();
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}
