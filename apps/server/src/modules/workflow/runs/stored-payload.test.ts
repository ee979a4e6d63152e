import { isStorableText } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { storable } from '../../../platform/db/storable.ts';
import { forStorage } from './stored-payload.ts';

describe('what a run keeps of a payload', () => {
  it('keeps a payload within the limit whole', () => {
    const payload = { text: 'hello', n: 3, list: [1, { deep: true }], none: null };
    expect(forStorage(payload, 1_000)).toEqual(payload);
  });

  it('cuts the large values of a payload over the limit, keeps the small ones, and says so', () => {
    const big = 'x'.repeat(50_000);
    const kept = forStorage({ id: 'small', body: big, rows: Array.from({ length: 5_000 }, (_, i) => i) }, 10_000);
    expect(Buffer.byteLength(JSON.stringify(kept))).toBeLessThanOrEqual(10_000);
    expect(kept.id).toBe('small');
    expect(kept.body).toMatch(/^x+… \[50002 bytes, cut\]$/);
    expect(String(kept.rows)).toMatch(/^\[0,1,2,.*bytes, cut\]$/);
    expect(kept.__truncated).toMatch(/over the 10000 kept per record/);
  });

  it('never splits a character and replaces what PostgreSQL cannot store', () => {
    const kept = forStorage({ emoji: '😀'.repeat(10_000) }, 1_000);
    expect(isStorableText(String(kept.emoji))).toBe(true);
    expect(storable({ a: 'nul\0here', b: ['\uD800alone'], c: Number.NaN })).toEqual({
      a: 'nul\uFFFDhere',
      b: ['\uFFFDalone'],
      c: null,
    });
  });
});
