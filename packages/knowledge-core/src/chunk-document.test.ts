import { describe, expect, it } from 'vitest';
import { makeChinesePdf, makeEnglishPdf } from './fixtures/make-fixtures.ts';
import {
  AUTO_CHUNK_OVERLAP,
  AUTO_CHUNK_SIZE,
  type Block,
  type Chunk,
  type ChunkingOptions,
  chunkDocument,
  countTokens,
  createChunker,
  KnowledgeFileError,
  type ParsedDocument,
  type ParsedTable,
  parseDocument,
} from './index.ts';
import { pdfPages } from './pdf.ts';

const SENTENCES = [
  '员工应当遵守国家法律法规和公司规章制度。',
  '公司尊重每一位员工的合法权益！',
  '因工作需要加班的，应当提前申请并经部门负责人批准；',
  '年假根据工龄确定，工作满一年不满十年的，年休假五天？',
  '知识库检索系统支持全文检索和向量检索。',
];

function chineseText(sentences: number, offset = 0): string {
  return Array.from({ length: sentences }, (_, index) => `${SENTENCES[(index + offset) % 5]}`).join('');
}

function doc(blocks: Block[], table: ParsedTable | null = null): ParsedDocument {
  return { kind: table ? 'csv' : 'txt', blocks, table, pages: null, encoding: 'utf-8' };
}

const paragraph = (text: string): Block => ({ type: 'paragraph', text });
const heading = (level: number, text: string): Block => ({ type: 'heading', level, text });
const custom = (size: number, overlap: number, separators: string[] = []) =>
  ({ mode: 'custom', size, overlap, separators }) as const;

/** Length of the longest suffix of `previous` (at most `max`) that `next` starts with. */
function overlapLength(previous: string, next: string, max: number): number {
  for (let length = Math.min(max, previous.length); length > 0; length--) {
    if (next.startsWith(previous.slice(-length))) return length;
  }
  return 0;
}

/** The chunk without its heading-path line (the only part allowed to exceed the size). */
function bodyOf(chunk: Chunk, prefixes: string[]): string {
  const [first, ...rest] = chunk.content.split('\n');
  return prefixes.includes(first) ? rest.join('\n') : chunk.content;
}

describe('chunkDocument: text', () => {
  it('auto mode packs up to 500 characters and cuts at Chinese sentence ends', () => {
    const chunks = chunkDocument(doc([paragraph(chineseText(120))]), { mode: 'auto' }, null);
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) {
      expect(chunk.content.length).toBeLessThanOrEqual(AUTO_CHUNK_SIZE);
      expect(chunk.content).toMatch(/[。！？；]$/);
      expect(chunk.tokens).toBe(countTokens(chunk.content));
      expect(chunk.question).toBe('');
      expect(chunk.answer).toBe('');
    }
  });

  it('starts each chunk with an overlap of at most 50 characters from the previous one, on a sentence start', () => {
    const chunks = chunkDocument(doc([paragraph(chineseText(120))]), { mode: 'auto' }, null);
    for (let index = 1; index < chunks.length; index++) {
      const overlap = overlapLength(chunks[index - 1].content, chunks[index].content, AUTO_CHUNK_OVERLAP);
      expect(overlap).toBeGreaterThan(0);
      // The carried text begins right after a sentence end of the previous chunk.
      expect(chunks[index - 1].content.at(-overlap - 1)).toMatch(/[。！？；]/);
    }
  });

  it('respects a custom size and overlap', () => {
    const chunks = chunkDocument(
      doc([paragraph(chineseText(60)), paragraph(chineseText(30, 2))]),
      custom(100, 20),
      null,
    );
    for (const chunk of chunks) expect(chunk.content.length).toBeLessThanOrEqual(100);
    for (let index = 1; index < chunks.length; index++) {
      const overlap = overlapLength(chunks[index - 1].content, chunks[index].content, 20);
      expect(overlap).toBeGreaterThan(0);
      // No sentence start within the last 20 characters here, so the overlap starts at a clause.
      expect(chunks[index - 1].content.at(-overlap - 1)).toMatch(/[。！？；，]/);
    }
  });

  it('prefixes the heading path to chunks that continue a section', () => {
    const blocks = [
      heading(1, '第一章 总则'),
      paragraph(chineseText(10)),
      heading(3, '第二条'),
      paragraph(chineseText(40)),
      heading(1, '第二章 附则'),
      paragraph(chineseText(3)),
    ];
    const chunks = chunkDocument(doc(blocks), custom(200, 0), null);
    const prefixes = ['第一章 总则', '第一章 总则 > 第二条'];
    expect(chunks[0].content.startsWith('第一章 总则\n')).toBe(true);
    expect(chunks.some((chunk) => chunk.content.startsWith('第一章 总则 > 第二条\n'))).toBe(true);
    expect(chunks.some((chunk) => chunk.content.split('\n').includes('第二条'))).toBe(true);
    // The next chapter fits with its text, so it joins the last chunk of the previous one.
    expect(chunks.at(-1)!.content).toContain('\n第二章 附则\n');
    for (const chunk of chunks) expect(bodyOf(chunk, prefixes).length).toBeLessThanOrEqual(200);
  });

  it('starts a new chunk at a heading that does not fit with the start of its section', () => {
    const blocks = [paragraph(chineseText(8)), heading(1, '第二章 工作时间'), paragraph(chineseText(6))];
    const chunks = chunkDocument(doc(blocks), custom(200, 30), null);
    expect(chunks[1].content.startsWith('第二章 工作时间\n')).toBe(true);
    const small = chunkDocument(
      doc([paragraph('短段落。'), heading(1, '第二章'), paragraph('正文。')]),
      { mode: 'auto' },
      null,
    );
    expect(small.map((chunk) => chunk.content)).toEqual(['短段落。\n第二章\n正文。']);
  });

  it('never splits a table row, even one longer than the size', () => {
    const longRow = Array.from({ length: 30 }, (_, index) => `cell ${index}`).join(' | ');
    const rows = Array.from({ length: 12 }, (_, index) => `row ${index} | 张三 | 研发部 | 010-${1000 + index}`);
    const blocks: Block[] = [
      paragraph(chineseText(3)),
      ...rows.slice(0, 6).map((text): Block => ({ type: 'table_row', text })),
      { type: 'table_row', text: longRow },
      ...rows.slice(6).map((text): Block => ({ type: 'table_row', text })),
    ];
    const chunks = chunkDocument(doc(blocks), custom(120, 30), null);
    const lines = chunks.flatMap((chunk) => chunk.content.split('\n'));
    for (const row of [...rows, longRow]) expect(lines.filter((line) => line === row)).toHaveLength(1);
    expect(chunks.some((chunk) => chunk.content === longRow)).toBe(true);
    for (const chunk of chunks) if (chunk.content !== longRow) expect(chunk.content.length).toBeLessThanOrEqual(120);
  });

  it('splits at custom separators first, understanding typed escapes', () => {
    const sections = ['A'.repeat(60), 'B'.repeat(60), 'C'.repeat(60)];
    const byMarker = chunkDocument(doc([paragraph(sections.join('###'))]), custom(100, 0, ['###']), null);
    expect(byMarker.map((chunk) => chunk.content)).toEqual([sections[0], `###${sections[1]}`, `###${sections[2]}`]);
    const byTab = chunkDocument(doc([paragraph(sections.join('\t'))]), custom(100, 0, ['\\t']), null);
    expect(byTab.map((chunk) => chunk.content)).toEqual(sections);
  });

  it('falls back to commas, then to the size, never splitting a surrogate pair', () => {
    const clauses = Array.from({ length: 20 }, () => '员工应当遵守规章制度，').join('');
    for (const chunk of chunkDocument(doc([paragraph(clauses)]), custom(100, 0), null)) {
      expect(chunk.content).toMatch(/，$/);
    }
    const emoji = '😀'.repeat(150);
    const chunks = chunkDocument(doc([paragraph(emoji)]), custom(101, 0), null);
    expect(chunks.map((chunk) => chunk.content).join('')).toBe(emoji);
    for (const chunk of chunks) expect(chunk.content).toMatch(/^(😀)+$/);
  });

  it('cuts English at sentence ends and never starts an overlap mid-word', () => {
    const text = Array.from(
      { length: 40 },
      (_, index) => `Sentence number ${index} explains one small rule about expense reports.`,
    ).join(' ');
    const words = new Set(text.split(/\s+/));
    const chunks = chunkDocument(doc([paragraph(text)]), custom(200, 60), null);
    for (const chunk of chunks) {
      expect(chunk.content.length).toBeLessThanOrEqual(200);
      expect(chunk.content).toMatch(/\.$/);
      expect(words.has(chunk.content.split(/\s+/)[0])).toBe(true);
    }
  });

  it('ignores page breaks and drops empty chunks', () => {
    const blocks: Block[] = [
      paragraph('第一页的内容。'),
      { type: 'page_break', page: 2 },
      paragraph('   '),
      paragraph('第二页的内容。'),
    ];
    expect(chunkDocument(doc(blocks), { mode: 'auto' }, null).map((chunk) => chunk.content)).toEqual([
      '第一页的内容。\n第二页的内容。',
    ]);
    expect(chunkDocument(doc([{ type: 'page_break', page: 2 }]), { mode: 'auto' }, null)).toEqual([]);
  });

  it('ignores a table mode for a document without a table', () => {
    const chunks = chunkDocument(
      doc([paragraph('正文。')]),
      { mode: 'auto' },
      { mode: 'qa', question_column: 0, answer_column: 1 },
    );
    expect(chunks).toEqual([{ question: '', answer: '', content: '正文。', tokens: countTokens('正文。') }]);
  });
});

describe('createChunker: a PDF chunked page by page', () => {
  it('gives exactly the chunks of chunkDocument over the whole parsed file', async () => {
    const settings: ChunkingOptions[] = [
      { mode: 'auto' },
      { mode: 'custom', size: 120, overlap: 30, separators: [] },
      { mode: 'custom', size: 40, overlap: 19, separators: ['。'] },
    ];
    for (const bytes of [await makeChinesePdf(8), await makeEnglishPdf(30)]) {
      const whole = await parseDocument(bytes, 'pdf');
      for (const chunking of settings) {
        const chunker = createChunker(chunking);
        const streamed: Chunk[] = [];
        for await (const page of pdfPages(bytes)) streamed.push(...chunker.add(page.blocks));
        streamed.push(...chunker.finish());
        expect(streamed).toEqual(chunkDocument(whole, chunking, null));
        expect(streamed.length).toBeGreaterThan(1);
      }
    }
  });
});

describe('chunkDocument: tables', () => {
  const table: ParsedTable = {
    columns: ['问题', '答案', '分类'],
    hasHeader: true,
    rows: [
      ['如何重置密码？', '在设置页面点击“忘记密码”。', '账号'],
      ['', '没有问题的行被跳过。', '其他'],
      ['年假有几天？', '五天。', '考勤'],
    ],
  };
  const rowBlocks = table.rows.map(
    (row): Block => ({
      type: 'table_row',
      text: row.map((cell, index) => `${table.columns[index]}: ${cell}`).join('; '),
    }),
  );
  const tableDoc = doc(rowBlocks, table);

  it('makes one question/answer segment per row with a question', () => {
    const chunks = chunkDocument(tableDoc, { mode: 'auto' }, { mode: 'qa', question_column: 0, answer_column: 1 });
    expect(chunks).toEqual([
      { question: '如何重置密码？', answer: '在设置页面点击“忘记密码”。', content: '', tokens: expect.any(Number) },
      { question: '年假有几天？', answer: '五天。', content: '', tokens: expect.any(Number) },
    ]);
    expect(chunks[0].tokens).toBeGreaterThan(0);
    const swapped = chunkDocument(tableDoc, { mode: 'auto' }, { mode: 'qa', question_column: 2, answer_column: 0 });
    expect(swapped.map((chunk) => chunk.question)).toEqual(['账号', '其他', '考勤']);
  });

  it('rejects question/answer columns that do not exist or coincide', () => {
    for (const [question, answer] of [
      [0, 3],
      [5, 1],
      [1, 1],
    ]) {
      expect(() =>
        chunkDocument(tableDoc, { mode: 'auto' }, { mode: 'qa', question_column: question, answer_column: answer }),
      ).toThrow(KnowledgeFileError);
    }
    try {
      chunkDocument(tableDoc, { mode: 'auto' }, { mode: 'qa', question_column: 1, answer_column: 1 });
    } catch (error) {
      expect((error as KnowledgeFileError).code).toBe('TABLE_COLUMNS_INVALID');
    }
  });

  it('groups whole rows up to the size in row mode (and without a table mode), without overlap', () => {
    const manyRows = Array.from(
      { length: 40 },
      (_, index): Block => ({
        type: 'table_row',
        text: `问题: 第${index}个问题是什么？; 答案: 这是第${index}个答案。`,
      }),
    );
    const manyDoc = doc(manyRows, { columns: ['问题', '答案'], hasHeader: true, rows: [] });
    for (const mode of [{ mode: 'row' } as const, null]) {
      const chunks = chunkDocument(manyDoc, custom(150, 40), mode);
      const lines = chunks.flatMap((chunk) => chunk.content.split('\n'));
      expect(lines).toEqual(manyRows.map((row) => row.type === 'table_row' && row.text));
      for (const chunk of chunks) expect(chunk.content.length).toBeLessThanOrEqual(150);
      expect(chunks.length).toBeGreaterThan(5);
    }
  });
});
