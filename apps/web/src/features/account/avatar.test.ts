import { AVATAR_MAX_BYTES, ERRORS } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client.ts';
import { avatarUploadErrorText, checkAvatar, readHead, sniffImageType } from './avatar.ts';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
const GIF = new TextEncoder().encode('GIF89a');

describe('sniffImageType', () => {
  it('recognises PNG and JPEG by their signatures only', () => {
    expect(sniffImageType(PNG)).toBe('image/png');
    expect(sniffImageType(JPEG)).toBe('image/jpeg');
    expect(sniffImageType(GIF)).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
    expect(sniffImageType(PNG.slice(0, 7))).toBeNull();
  });
});

describe('checkAvatar', () => {
  it('accepts a small PNG or JPEG and reports the real type', () => {
    expect(checkAvatar({ size: 1000 }, PNG, 'en')).toEqual({ ok: true, type: 'image/png' });
    expect(checkAvatar({ size: AVATAR_MAX_BYTES }, JPEG, 'en')).toEqual({ ok: true, type: 'image/jpeg' });
  });

  it("refuses other content and oversize files with the server's messages", () => {
    expect(checkAvatar({ size: 1000 }, GIF, 'zh-CN')).toEqual({
      ok: false,
      message: ERRORS.AVATAR_INVALID.msg['zh-CN'],
    });
    expect(checkAvatar({ size: AVATAR_MAX_BYTES + 1 }, PNG, 'en')).toEqual({
      ok: false,
      message: ERRORS.AVATAR_TOO_LARGE.msg.en,
    });
    expect(checkAvatar({ size: 0 }, PNG, 'en').ok).toBe(false);
  });
});

describe('avatarUploadErrorText', () => {
  it('says "too large" for a bare HTTP 413 and for the generic body-too-large code', () => {
    expect(avatarUploadErrorText(new ApiError('', undefined, 'http', false, 413), 'en')).toBe(
      ERRORS.AVATAR_TOO_LARGE.msg.en,
    );
    expect(avatarUploadErrorText(new ApiError('too big', 40013, 'business'), 'zh-TW')).toBe(
      ERRORS.AVATAR_TOO_LARGE.msg['zh-TW'],
    );
  });

  it("passes the server's own message through, and falls back to 'System error'", () => {
    expect(avatarUploadErrorText(new ApiError('头像仅支持 JPG 或 PNG 图片。', 40053, 'business'), 'zh-CN')).toBe(
      '头像仅支持 JPG 或 PNG 图片。',
    );
    expect(avatarUploadErrorText(new ApiError('', undefined, 'network'), 'en')).toBe('System error');
  });
});

describe('readHead', () => {
  it('reads the first bytes of a Blob', async () => {
    expect([...(await readHead(new Blob([PNG]), 4))]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });
});
