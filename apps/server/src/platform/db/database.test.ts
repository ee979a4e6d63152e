import { describe, expect, it } from 'vitest';
import { autoSharedBuffers } from './database.ts';

const MB = 1024 * 1024;
const GB = 1024 * MB;

describe('autoSharedBuffers', () => {
  it('keeps a new or small database at 16 MB, so an idle server stays small', () => {
    expect(autoSharedBuffers(0, 24 * GB)).toBe('16MB');
    expect(autoSharedBuffers(60 * MB, 24 * GB)).toBe('16MB');
  });

  it('gives a larger database a quarter of its size', () => {
    expect(autoSharedBuffers(1600 * MB, 24 * GB)).toBe('400MB');
  });

  it('never takes more than 1 GB or an eighth of the machine', () => {
    expect(autoSharedBuffers(20 * GB, 24 * GB)).toBe('1024MB');
    expect(autoSharedBuffers(1600 * MB, 2 * GB)).toBe('256MB');
    expect(autoSharedBuffers(1600 * MB, 64 * MB)).toBe('16MB');
  });
});
