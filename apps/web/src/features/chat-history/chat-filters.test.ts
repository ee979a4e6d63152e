import { describe, expect, it } from 'vitest';
import {
  filtersFromSearch,
  isFiltered,
  isRangeIncomplete,
  listFilters,
  NO_FILTERS,
  timeOf,
  withFilters,
} from './chat-filters.ts';

const search = (query: string) => new URLSearchParams(query);

describe('chat-history filters in the address', () => {
  it('reads every filter back as it was written', () => {
    const filters = {
      chatType: 'group',
      sendType: 'ai_full',
      time: 'custom',
      from: 1_700_000_000_000,
      to: 1_700_086_400_000,
      keyword: '退货',
      customerId: '42',
      customerName: '王小明',
    } as const;
    const written = withFilters(search('c=7&scene=19'), filters);
    expect(filtersFromSearch(written)).toEqual(filters);
    // The open conversation and the scene are left alone.
    expect(written.get('c')).toBe('7');
    expect(written.get('scene')).toBe('19');
  });

  it('writes nothing for "no filter"', () => {
    expect(withFilters(search('q=x&send=user&c=3'), NO_FILTERS).toString()).toBe('c=3');
  });

  it('ignores unknown and malformed values', () => {
    expect(filtersFromSearch(search('chat=channel&send=robot&time=2y&from=abc&customer=a%20b&cname=x'))).toEqual(
      NO_FILTERS,
    );
  });

  it('drops a send type the scene does not offer', () => {
    expect(filtersFromSearch(search('send=human'), ['', 'user', 'ai_full']).sendType).toBe('');
    expect(filtersFromSearch(search('send=ai_full'), ['', 'user', 'ai_full']).sendType).toBe('ai_full');
  });

  it('keeps the range ends only with a custom range', () => {
    const written = withFilters(search(''), { ...NO_FILTERS, time: '7d', from: 1, to: 2 });
    expect(written.toString()).toBe('time=7d');
  });

  it('cuts an over-long keyword to the limit', () => {
    expect(filtersFromSearch(search(`q=${'字'.repeat(150)}`)).keyword).toHaveLength(100);
  });
});

describe('the list call', () => {
  it('sends a preset as it is and a custom range only when complete and in order', () => {
    expect(timeOf({ ...NO_FILTERS, time: '24h' })).toEqual({ preset: '24h' });
    expect(timeOf({ ...NO_FILTERS, time: 'custom', from: 1, to: 2 })).toEqual({ preset: 'custom', from: 1, to: 2 });
    expect(timeOf({ ...NO_FILTERS, time: 'custom', from: 1, to: null })).toBeNull();
    expect(timeOf({ ...NO_FILTERS, time: 'custom', from: 3, to: 2 })).toBeNull();
    expect(isRangeIncomplete({ ...NO_FILTERS, time: 'custom' })).toBe(true);
    expect(isRangeIncomplete({ ...NO_FILTERS, time: '1h' })).toBe(false);
  });

  it('trims the keyword and counts a blank one as no filter', () => {
    expect(listFilters({ ...NO_FILTERS, keyword: '  发票 ' }).keyword).toBe('发票');
    expect(isFiltered({ ...NO_FILTERS, keyword: '   ' })).toBe(false);
    expect(isFiltered(NO_FILTERS)).toBe(false);
    expect(isFiltered({ ...NO_FILTERS, customerId: '5' })).toBe(true);
    expect(isFiltered({ ...NO_FILTERS, time: 'custom' })).toBe(true);
  });
});
