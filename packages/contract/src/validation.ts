import { text } from './text.ts';

/**
 * Field rules shared by the login form and the server. Issue messages are error keys from
 * errors.ts so both sides show the same localised text.
 */
export const PHONE_PATTERN = /^1[3-9]\d{9}$/;
export const PHONE_MAX_LENGTH = 11;
export const CODE_MAX_LENGTH = 6;
export const NICKNAME_MAX_LENGTH = 30;

export const phoneField = text({ error: 'PHONE_REQUIRED' })
  .trim()
  .min(1, { error: 'PHONE_REQUIRED' })
  .regex(PHONE_PATTERN, { error: 'PHONE_INVALID' });

export const smsCodeField = text({ error: 'CODE_REQUIRED' })
  .trim()
  .min(1, { error: 'CODE_REQUIRED' })
  .max(CODE_MAX_LENGTH, { error: 'CODE_INVALID' });

export const idField = text().uuid();

/** Masks the middle of a mainland mobile number: 138****0000. */
export const maskPhone = (phone: string) => (phone.length === 11 ? `${phone.slice(0, 3)}****${phone.slice(7)}` : phone);
