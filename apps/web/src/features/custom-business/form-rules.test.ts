import { ATTACHMENT_MAX_BYTES, ERRORS } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import {
  contactError,
  FIELD_RULES,
  fieldError,
  fieldOfCode,
  formatBytes,
  precheckFile,
  yuanToFen,
} from './form-rules.ts';

const PDF = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x34]);
const ZIP = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]);
const GIF = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0, 0]);

describe('form rules use the contract and its messages', () => {
  it('answers the server’s own words in the UI language', () => {
    expect(fieldError(FIELD_RULES.title, '  ', 'zh-CN')).toBe(ERRORS.CUSTOM_TITLE_INVALID.msg['zh-CN']);
    expect(fieldError(FIELD_RULES.requirements, 'short', 'en')).toBe(ERRORS.CUSTOM_REQUIREMENTS_INVALID.msg.en);
    expect(fieldError(FIELD_RULES.contact_phone, '1380000', 'zh-TW')).toBe(ERRORS.PHONE_INVALID.msg['zh-TW']);
    expect(fieldError(FIELD_RULES.contact_email, 'a@b', 'en')).toBe(ERRORS.CUSTOM_EMAIL_INVALID.msg.en);
    expect(fieldError(FIELD_RULES.expected_date, '2001-01-01', 'en')).toBe(ERRORS.CUSTOM_DATE_INVALID.msg.en);
    expect(fieldError(FIELD_RULES.title, '智能客服', 'en')).toBeNull();
    expect(fieldError(FIELD_RULES.contact_phone, '', 'en')).toBeNull();
    expect(fieldError(FIELD_RULES.expected_date, null, 'en')).toBeNull();
  });

  it('wants a phone or an email', () => {
    expect(contactError('', ' ', 'zh-CN')).toBe(ERRORS.CUSTOM_CONTACT_REQUIRED.msg['zh-CN']);
    expect(contactError(undefined, 'a@b.co', 'en')).toBeNull();
    expect(contactError('13800000000', undefined, 'en')).toBeNull();
  });

  it('routes server refusals to their field', () => {
    expect(fieldOfCode(ERRORS.CUSTOM_EMAIL_INVALID.code)).toBe('contact_email');
    expect(fieldOfCode(ERRORS.ATTACHMENTS_TOO_MANY.code)).toBe('attachments');
    expect(fieldOfCode(ERRORS.SYSTEM_ERROR.code)).toBeNull();
    expect(fieldOfCode(undefined)).toBeNull();
  });
});

describe('precheckFile', () => {
  it('lets known signatures through up to 10 MB', () => {
    expect(precheckFile({ size: 1000 }, PDF, 'en')).toBeNull();
    expect(precheckFile({ size: ATTACHMENT_MAX_BYTES }, ZIP, 'en')).toBeNull();
  });

  it('refuses other content and bigger files with the server’s messages', () => {
    expect(precheckFile({ size: 1000 }, GIF, 'en')).toBe(ERRORS.ATTACHMENT_INVALID.msg.en);
    expect(precheckFile({ size: ATTACHMENT_MAX_BYTES + 1 }, PDF, 'zh-CN')).toBe(
      ERRORS.ATTACHMENT_TOO_LARGE.msg['zh-CN'],
    );
    expect(precheckFile({ size: 0 }, new Uint8Array(), 'en')).toBe(ERRORS.ATTACHMENT_INVALID.msg.en);
  });
});

describe('yuanToFen', () => {
  it('turns typed yuan into integer fen without float errors', () => {
    expect(yuanToFen('12800')).toBe(1_280_000);
    expect(yuanToFen('0.1')).toBe(10);
    expect(yuanToFen('19.99')).toBe(1999);
    expect(yuanToFen(' 1.05 ')).toBe(105);
  });

  it('rejects what is not an amount', () => {
    for (const value of ['', '-1', '1.234', 'abc', '1e5', null, undefined]) expect(yuanToFen(value)).toBeNull();
  });
});

it('formats sizes', () => {
  expect(formatBytes(900)).toBe('900 B');
  expect(formatBytes(2048)).toBe('2 KB');
  expect(formatBytes(3.5 * 1024 * 1024)).toBe('3.5 MB');
});
