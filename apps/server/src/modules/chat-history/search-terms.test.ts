import { describe, expect, it } from 'vitest';
import { keywordQueryOf, searchTermsOf } from './search-terms.ts';

describe('keyword search terms', () => {
  it('indexes Chinese as characters and their pairs, other text as lower-cased words', () => {
    expect(searchTermsOf('退款申请 Order-42')).toEqual(['退', '款', '申', '请', '退款', '款申', '申请', 'order', '42']);
    // Full-width letters and digits read as their half-width forms.
    expect(searchTermsOf('ＡＢＣ１２３')).toEqual(['abc123']);
    expect(searchTermsOf('🚚，！')).toEqual([]);
  });

  it('looks a keyword up by its pairs, or its one character, or the words it begins', () => {
    expect(keywordQueryOf('申请退款')).toBe("'申请' & '请退' & '退款'");
    expect(keywordQueryOf('退')).toBe("'退'");
    expect(keywordQueryOf('Parcel 7')).toBe("'parcel':* & '7':*");
    expect(keywordQueryOf('%%')).toBeNull();
  });

  it('bounds what one message costs the index', () => {
    expect(searchTermsOf('字'.repeat(5) + '词'.repeat(5)).length).toBeLessThan(10);
    const many = Array.from({ length: 3000 }, (_, i) => `w${i}`).join(' ');
    expect(searchTermsOf(many)).toHaveLength(1000);
    expect(searchTermsOf('x'.repeat(61))).toEqual([]);
  });
});
