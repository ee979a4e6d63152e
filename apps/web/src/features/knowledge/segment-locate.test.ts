import { describe, expect, it } from 'vitest';
import { highlightParts, locateSegment, pageOfIndex, positionLabel } from './segment-locate.ts';

const list = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `s${i}` }));

function pager(items: { id: string }[]) {
  const calls: number[] = [];
  const fetchPage = async (page: number, size: number) => {
    calls.push(page);
    return { items: items.slice((page - 1) * size, page * size), total: items.length };
  };
  return { fetchPage, calls };
}

describe('finding a segment for ?segment=', () => {
  it('reads pages of 100 until the id turns up and answers its index', async () => {
    const { fetchPage, calls } = pager(list(250));
    expect(await locateSegment(fetchPage, 's3')).toBe(3);
    expect(calls).toEqual([1]);
    const again = pager(list(250));
    expect(await locateSegment(again.fetchPage, 's230')).toBe(230);
    expect(again.calls).toEqual([1, 2, 3]);
  });

  it('answers null for an id that is not in the list, without reading past the end', async () => {
    const { fetchPage, calls } = pager(list(200));
    expect(await locateSegment(fetchPage, 'gone')).toBeNull();
    expect(calls).toEqual([1, 2]);
  });

  it('turns an index into the page of 20 it is on', () => {
    expect(pageOfIndex(0)).toBe(1);
    expect(pageOfIndex(19)).toBe(1);
    expect(pageOfIndex(20)).toBe(2);
    expect(pageOfIndex(230)).toBe(12);
    expect(positionLabel(0)).toBe('#1');
  });
});

describe('highlightParts', () => {
  it('marks every case-insensitive match as its own part', () => {
    expect(highlightParts('Refund policy: refunds in 7 days', 'refund')).toEqual([
      { text: 'Refund', match: true },
      { text: ' policy: ', match: false },
      { text: 'refund', match: true },
      { text: 's in 7 days', match: false },
    ]);
    expect(highlightParts('退货政策：七天无理由退货', '退货')).toEqual([
      { text: '退货', match: true },
      { text: '政策：七天无理由', match: false },
      { text: '退货', match: true },
    ]);
  });

  it('keeps markup as text and the whole text without a keyword', () => {
    expect(highlightParts('<b>x</b>', '')).toEqual([{ text: '<b>x</b>', match: false }]);
    expect(highlightParts('', 'x')).toEqual([]);
  });
});
