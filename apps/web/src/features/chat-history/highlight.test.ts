import { describe, expect, it } from 'vitest';
import { splitHighlight } from './highlight.ts';

describe('splitHighlight', () => {
  it('marks every occurrence, ignoring case', () => {
    expect(splitHighlight('Refund: the REFUND is on its way', 'refund')).toEqual([
      { text: 'Refund', hit: true },
      { text: ': the ', hit: false },
      { text: 'REFUND', hit: true },
      { text: ' is on its way', hit: false },
    ]);
  });

  it('marks Chinese keywords inside a sentence', () => {
    expect(splitHighlight('请问退货流程是什么？退货要多久', '退货')).toEqual([
      { text: '请问', hit: false },
      { text: '退货', hit: true },
      { text: '流程是什么？', hit: false },
      { text: '退货', hit: true },
      { text: '要多久', hit: false },
    ]);
  });

  it('leaves text alone without a keyword or a match', () => {
    expect(splitHighlight('hello', '  ')).toEqual([{ text: 'hello', hit: false }]);
    expect(splitHighlight('hello', 'xyz')).toEqual([{ text: 'hello', hit: false }]);
    expect(splitHighlight('', 'x')).toEqual([]);
  });
});
