import { ERRORS, MEDIA_AUX_IMAGE_MAX_BYTES } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client.ts';
import { checkImage, imageUploadErrorText } from '../../lib/image-check.ts';
import { COVER_IMAGE, dimensionsText, durationText, pendingPages } from './media-meta.ts';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
const GIF = new TextEncoder().encode('GIF89a');
const facts = { kind: 'video' as const, duration_ms: 83_400, width: 1920, height: 1080 };

describe('durationText and dimensionsText', () => {
  it('show what the server measured, for the kinds it belongs to', () => {
    expect(durationText(facts)).toBe('1:23');
    expect(durationText({ ...facts, duration_ms: 3_723_000 })).toBe('1:02:03');
    expect(durationText({ ...facts, kind: 'audio' })).toBe('1:23');
    expect(durationText({ ...facts, kind: 'image' })).toBeNull();
    expect(durationText({ ...facts, duration_ms: null })).toBeNull();
    expect(dimensionsText(facts)).toBe('1920 × 1080');
    expect(dimensionsText({ ...facts, kind: 'image' })).toBe('1920 × 1080');
    expect(dimensionsText({ ...facts, kind: 'audio' })).toBeNull();
    expect(dimensionsText({ ...facts, width: null })).toBeNull();
  });
});

describe('pendingPages', () => {
  const items = Array.from({ length: 250 }, (_, index) => ({
    preview: index === 5 || index === 120 || index === 240 ? ('pending' as const) : ('ready' as const),
  }));

  it('lists the pages of the pending items on screen, once each', () => {
    expect(pendingPages(items, 0, 30, 100)).toEqual([1]);
    expect(pendingPages(items, 0, 130, 100)).toEqual([1, 2]);
    expect(pendingPages(items, 110, 119, 100)).toEqual([]);
    expect(pendingPages(items, 200, 400, 100)).toEqual([3]);
  });

  it('is empty before anything is on screen', () => {
    expect(pendingPages(items, 0, -1, 100)).toEqual([]);
    expect(pendingPages([], 0, 10, 100)).toEqual([]);
  });
});

describe('the cover rules', () => {
  it('accept a JPEG or PNG up to the limit, by content', () => {
    expect(checkImage({ size: 1000 }, PNG, COVER_IMAGE, 'en')).toEqual({ ok: true, type: 'image/png' });
    expect(checkImage({ size: MEDIA_AUX_IMAGE_MAX_BYTES }, JPEG, COVER_IMAGE, 'en')).toEqual({
      ok: true,
      type: 'image/jpeg',
    });
  });

  it("refuse other content, empty and oversize files with the server's messages", () => {
    expect(checkImage({ size: 1000 }, GIF, COVER_IMAGE, 'zh-CN')).toEqual({
      ok: false,
      message: ERRORS.MEDIA_AUX_IMAGE_INVALID.msg['zh-CN'],
    });
    expect(checkImage({ size: 0 }, PNG, COVER_IMAGE, 'en')).toEqual({
      ok: false,
      message: ERRORS.MEDIA_AUX_IMAGE_INVALID.msg.en,
    });
    expect(checkImage({ size: MEDIA_AUX_IMAGE_MAX_BYTES + 1 }, PNG, COVER_IMAGE, 'zh-TW')).toEqual({
      ok: false,
      message: ERRORS.MEDIA_AUX_IMAGE_TOO_LARGE.msg['zh-TW'],
    });
  });

  it('say "too large" for a bare 413, else the envelope\'s message', () => {
    expect(imageUploadErrorText(new ApiError('', undefined, 'http', false, 413), COVER_IMAGE, 'en')).toBe(
      ERRORS.MEDIA_AUX_IMAGE_TOO_LARGE.msg.en,
    );
    const invalid = ERRORS.MEDIA_AUX_IMAGE_INVALID.msg['zh-CN'];
    const refusal = new ApiError(invalid, ERRORS.MEDIA_AUX_IMAGE_INVALID.code, 'business');
    expect(imageUploadErrorText(refusal, COVER_IMAGE, 'zh-CN')).toBe(invalid);
  });
});
