import { MEDIA_FILE_MAX_BYTES } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { chunkSizeFor, nextSpeed, secondsLeft, tooLargeText, tusFailure } from './upload-math.ts';

describe('upload math', () => {
  it('sends about a hundred chunks of 8 to 64 MiB', () => {
    const MiB = 1024 * 1024;
    expect(chunkSizeFor(17 * MiB)).toBe(8 * MiB);
    expect(chunkSizeFor(2000 * MiB)).toBe(20 * MiB);
    expect(chunkSizeFor(MEDIA_FILE_MAX_BYTES)).toBe(52 * MiB);
    expect(chunkSizeFor(100 * 1024 * MiB)).toBe(64 * MiB);
  });

  it('smooths the speed and derives the time left', () => {
    expect(nextSpeed(null, 1000, 1000)).toBe(1000);
    expect(nextSpeed(900, 3000, 1000)).toBe(1600);
    expect(nextSpeed(500, 10, 0)).toBe(500);
    expect(secondsLeft(1000, 400, 200)).toBe(3);
    expect(secondsLeft(1000, 400, null)).toBeNull();
  });

  it('refuses a file over 5 GB with the server text, and takes the envelope message of a tus error', () => {
    expect(tooLargeText(MEDIA_FILE_MAX_BYTES, 'en')).toBeNull();
    expect(tooLargeText(MEDIA_FILE_MAX_BYTES + 1, 'en')).toBe('A media file may be at most 5 GB.');
    expect(tusFailure(413, '{"code":40704,"msg":"Out of storage"}', 'x')).toEqual({
      status: 413,
      message: 'Out of storage',
    });
    expect(tusFailure(502, '<html>', 'Upload failed')).toEqual({ status: 502, message: 'Upload failed' });
    expect(tusFailure(null, null, 'Upload failed').message).toBe('Upload failed');
  });
});
