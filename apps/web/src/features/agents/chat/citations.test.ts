import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { describe, expect, it } from 'vitest';
import { CITATION_ELEMENT, remarkCitations, splitCitations, toCitations } from './citations.ts';

const known = new Set([1, 2, 3]);

describe('splitCitations', () => {
  it('cuts answer text at the markers of known sources', () => {
    expect(splitCitations('Refunds take 7 days [1]. Shipping is free[2][3].', known)).toEqual([
      { type: 'text', value: 'Refunds take 7 days ' },
      { type: 'cite', marker: 1 },
      { type: 'text', value: '. Shipping is free' },
      { type: 'cite', marker: 2 },
      { type: 'cite', marker: 3 },
      { type: 'text', value: '.' },
    ]);
  });

  it('reads grouped markers, with Chinese commas too', () => {
    expect(splitCitations('七天内可退货[1，3]。', known)).toEqual([
      { type: 'text', value: '七天内可退货' },
      { type: 'cite', marker: 1 },
      { type: 'cite', marker: 3 },
      { type: 'text', value: '。' },
    ]);
    expect(splitCitations('see [1, 2]', known).filter((p) => p.type === 'cite')).toHaveLength(2);
  });

  it('leaves unknown markers and look-alikes as text', () => {
    expect(splitCitations('array[0] and [4] and [1, 9] and [a]', known)).toEqual([
      { type: 'text', value: 'array[0] and [4] and [1, 9] and [a]' },
    ]);
    expect(splitCitations('no sources [1]', new Set())).toEqual([{ type: 'text', value: 'no sources [1]' }]);
    expect(splitCitations('', known)).toEqual([]);
  });
});

describe('toCitations', () => {
  it('keeps well-formed items in marker order, one per marker', () => {
    const items = toCitations([
      { marker: 2, knowledge_id: 'k', unit_id: 'u', segment_id: 's2', file_name: 'b.pdf', snippet: 'B', score: 0.5 },
      { marker: 1, knowledge_id: 'k', unit_id: 'u', segment_id: 's1', file_name: 'a.pdf', snippet: 'A', score: 0.9 },
      { marker: 1, segment_id: 'dup' },
      { marker: 0, segment_id: 'zero' },
      { marker: 3 },
      'junk',
      null,
    ]);
    expect(items.map((c) => [c.marker, c.segment_id])).toEqual([
      [1, 's1'],
      [2, 's2'],
    ]);
    expect(toCitations(undefined)).toEqual([]);
  });
});

describe('remarkCitations in the Markdown renderer', () => {
  const render = (text: string) => {
    const components = {
      [CITATION_ELEMENT]: ({ marker }: { marker?: string }) => createElement('sup', { 'data-chip': marker }, marker),
    } as unknown as Components;
    return renderToStaticMarkup(
      createElement(ReactMarkdown, { remarkPlugins: [remarkGfm, remarkCitations(known)], components }, text),
    );
  };

  it('renders markers as chips in paragraphs, lists, emphasis and tables', () => {
    const html = render('Yes [1].\n\n- **fast [2]**\n\n| a |\n|---|\n| x [3] |');
    expect(html).toContain('Yes <sup data-chip="1">1</sup>.');
    expect(html).toContain('<strong>fast <sup data-chip="2">2</sup></strong>');
    expect(html).toContain('<td>x <sup data-chip="3">3</sup></td>');
  });

  it('leaves markers in code and links alone, and raw HTML stays text', () => {
    const html = render('`a[1]` and [link [2]](https://example.com) <b>[3]</b>\n\n```\nb[1]\n```');
    expect(html).toContain('<code>a[1]</code>');
    expect(html).toContain('>link [2]</a>');
    expect(html).not.toContain('<b>');
    expect(html).toContain('<pre><code>b[1]\n</code></pre>');
  });
});
