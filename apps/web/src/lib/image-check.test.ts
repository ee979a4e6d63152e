import { ERRORS } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client.ts';
import {
  checkImage,
  checkImageFile,
  type ImageRules,
  imageUploadErrorText,
  readHead,
  sniffImageType,
} from './image-check.ts';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
const GIF = new TextEncoder().encode('GIF89a');
const RULES: ImageRules = { maxBytes: 1000, invalid: 'AVATAR_INVALID', tooLarge: 'AVATAR_TOO_LARGE' };

describe('sniffImageType', () => {
  it('recognises PNG and JPEG by their signatures only', () => {
    expect(sniffImageType(PNG)).toBe('image/png');
    expect(sniffImageType(JPEG)).toBe('image/jpeg');
    expect(sniffImageType(GIF)).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
    expect(sniffImageType(PNG.slice(0, 7))).toBeNull();
  });
});

describe('checkImage', () => {
  it('accepts a PNG or JPEG up to the limit and reports the real type', () => {
    expect(checkImage({ size: 10 }, PNG, RULES, 'en')).toEqual({ ok: true, type: 'image/png' });
    expect(checkImage({ size: RULES.maxBytes }, JPEG, RULES, 'en')).toEqual({ ok: true, type: 'image/jpeg' });
  });

  it("refuses other content, empty and oversize files with the rules' messages", () => {
    expect(checkImage({ size: 10 }, GIF, RULES, 'zh-CN')).toEqual({
      ok: false,
      message: ERRORS.AVATAR_INVALID.msg['zh-CN'],
    });
    expect(checkImage({ size: 0 }, PNG, RULES, 'en')).toEqual({ ok: false, message: ERRORS.AVATAR_INVALID.msg.en });
    expect(checkImage({ size: RULES.maxBytes + 1 }, PNG, RULES, 'zh-TW')).toEqual({
      ok: false,
      message: ERRORS.AVATAR_TOO_LARGE.msg['zh-TW'],
    });
    // Not an image at all is said first, whatever its size.
    expect(checkImage({ size: RULES.maxBytes + 1 }, GIF, RULES, 'en')).toEqual({
      ok: false,
      message: ERRORS.AVATAR_INVALID.msg.en,
    });
  });
});

describe('checkImageFile', () => {
  it('checks a chosen file by its first bytes, whatever its name and declared type', async () => {
    const disguised = new File([GIF], 'photo.png', { type: 'image/png' });
    expect(await checkImageFile(disguised, RULES, 'en')).toEqual({ ok: false, message: ERRORS.AVATAR_INVALID.msg.en });
    const jpeg = new File([JPEG], 'photo.gif', { type: 'image/gif' });
    expect(await checkImageFile(jpeg, RULES, 'en')).toEqual({ ok: true, type: 'image/jpeg' });
    expect(await checkImageFile(new File([], 'empty.png'), RULES, 'en')).toEqual({
      ok: false,
      message: ERRORS.AVATAR_INVALID.msg.en,
    });
  });
});

describe('imageUploadErrorText', () => {
  it('says "too large" for a bare HTTP 413 and for the generic body-too-large code', () => {
    expect(imageUploadErrorText(new ApiError('', undefined, 'http', false, 413), RULES, 'en')).toBe(
      ERRORS.AVATAR_TOO_LARGE.msg.en,
    );
    expect(
      imageUploadErrorText(new ApiError('too big', ERRORS.PAYLOAD_TOO_LARGE.code, 'business'), RULES, 'zh-TW'),
    ).toBe(ERRORS.AVATAR_TOO_LARGE.msg['zh-TW']);
  });

  it("passes the server's own message through, and falls back to 'System error'", () => {
    expect(imageUploadErrorText(new ApiError('头像仅支持 JPG 或 PNG 图片。', 40053, 'business'), RULES, 'zh-CN')).toBe(
      '头像仅支持 JPG 或 PNG 图片。',
    );
    expect(imageUploadErrorText(new ApiError('', undefined, 'network'), RULES, 'en')).toBe('System error');
  });
});

describe('readHead', () => {
  it('reads the first bytes of a Blob', async () => {
    expect([...(await readHead(new Blob([PNG]), 4))]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });
});
