import { AVATAR_MAX_BYTES, ERRORS } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client.ts';
import { checkImage, imageUploadErrorText } from '../../lib/image-check.ts';
import { AVATAR_IMAGE } from './avatar.ts';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
const GIF = new TextEncoder().encode('GIF89a');

describe('the avatar rules', () => {
  it('accept a PNG or JPEG of at most 2 MB', () => {
    expect(checkImage({ size: 1000 }, PNG, AVATAR_IMAGE, 'en')).toEqual({ ok: true, type: 'image/png' });
    expect(checkImage({ size: AVATAR_MAX_BYTES }, JPEG, AVATAR_IMAGE, 'en')).toEqual({ ok: true, type: 'image/jpeg' });
  });

  it("refuse other content, empty and oversize files with the server's avatar messages", () => {
    expect(checkImage({ size: 1000 }, GIF, AVATAR_IMAGE, 'zh-CN')).toEqual({
      ok: false,
      message: ERRORS.AVATAR_INVALID.msg['zh-CN'],
    });
    expect(checkImage({ size: AVATAR_MAX_BYTES + 1 }, PNG, AVATAR_IMAGE, 'en')).toEqual({
      ok: false,
      message: ERRORS.AVATAR_TOO_LARGE.msg.en,
    });
    expect(checkImage({ size: 0 }, PNG, AVATAR_IMAGE, 'en').ok).toBe(false);
    expect(imageUploadErrorText(new ApiError('', undefined, 'http', false, 413), AVATAR_IMAGE, 'en')).toBe(
      ERRORS.AVATAR_TOO_LARGE.msg.en,
    );
  });
});
