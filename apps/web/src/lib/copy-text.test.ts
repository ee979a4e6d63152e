import { describe, expect, it, vi } from 'vitest';
import { copyText } from './copy-text.ts';

describe('copyText', () => {
  it('uses the Clipboard API when it works', async () => {
    const writeText = vi.fn(async () => {});
    const legacyCopy = vi.fn(() => true);
    expect(await copyText('https://x/invite/abc', { clipboard: { writeText }, legacyCopy })).toBe(true);
    expect(writeText).toHaveBeenCalledWith('https://x/invite/abc');
    expect(legacyCopy).not.toHaveBeenCalled();
  });

  it('falls back to the legacy copy command when the Clipboard API refuses', async () => {
    const writeText = vi.fn(async () => {
      throw new Error('NotAllowedError');
    });
    const legacyCopy = vi.fn(() => true);
    expect(await copyText('abc', { clipboard: { writeText }, legacyCopy })).toBe(true);
    expect(legacyCopy).toHaveBeenCalledWith('abc');
  });

  it('reports failure when nothing can copy', async () => {
    expect(await copyText('abc', { legacyCopy: () => false })).toBe(false);
    expect(await copyText('abc', {})).toBe(false);
  });
});
