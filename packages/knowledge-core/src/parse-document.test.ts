import ExcelJS from 'exceljs';
import { PDFDocument, PDFHexString, PDFName, PDFNumber, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import {
  CHINESE_PDF_CHAPTERS,
  DOCX_TABLE,
  EMPTY_FILE,
  makeChinesePdf,
  makeCsvQa,
  makeDocxWithHeadingsAndTable,
  makeEnglishPdf,
  makeGbkText,
  makeStoredZip,
  makeXlsxQa,
} from './fixtures/make-fixtures.ts';
import { type Block, type FileKind, KnowledgeFileError, type ParsedDocument, parseDocument } from './index.ts';

const utf8 = (text: string) => new TextEncoder().encode(text);
const textOf = (blocks: Block[]) => blocks.map((block) => (block.type === 'page_break' ? '' : block.text)).join('\n');

async function parseError(bytes: Uint8Array, kind: FileKind): Promise<string> {
  try {
    await parseDocument(bytes, kind);
  } catch (error) {
    if (error instanceof KnowledgeFileError) return error.code;
    throw error;
  }
  return 'parsed';
}

async function encryptedPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage().drawText('secret', { x: 50, y: 700, font });
  // A standard security handler whose user password is not empty: readers must ask for it.
  const encrypt = pdf.context.obj({
    Filter: PDFName.of('Standard'),
    V: PDFNumber.of(1),
    R: PDFNumber.of(2),
    O: PDFHexString.of('00'.repeat(32)),
    U: PDFHexString.of('11'.repeat(32)),
    P: PDFNumber.of(-4),
  });
  pdf.context.trailerInfo.Encrypt = pdf.context.register(encrypt);
  const id = PDFHexString.of('ab'.repeat(16));
  pdf.context.trailerInfo.ID = pdf.context.obj([id, id]);
  return pdf.save({ useObjectStreams: false });
}

describe('parseDocument: PDF', () => {
  it('extracts Chinese text page by page, repairing radical code points', async () => {
    const doc = await parseDocument(await makeChinesePdf(5), 'pdf');
    expect(doc.pages).toBe(5);
    expect(
      doc.blocks
        .filter((block) => block.type === 'page_break')
        .map((block) => block.type === 'page_break' && block.page),
    ).toEqual([2, 3, 4, 5]);
    const headings = doc.blocks
      .filter((block) => block.type === 'heading')
      .map((block) => block.type === 'heading' && block.text);
    expect(headings).toEqual([...CHINESE_PDF_CHAPTERS, CHINESE_PDF_CHAPTERS[0]]);
    const text = textOf(doc.blocks);
    expect(text).toContain('本手册适用于公司全体员工。');
    // Lines wrapped by the layout are re-joined without a break inside the sentence.
    expect(text).toContain('公司为员工提供安全的工作环境；');
    expect(text).toContain('加班需要部门批准。');
    expect(text).toContain('Page 5');
    expect(text).not.toMatch(/[\u2e80-\u2fdf]/);
  });

  it('extracts English text from every page', async () => {
    const doc = await parseDocument(await makeEnglishPdf(3, 12), 'pdf');
    expect(doc.kind).toBe('pdf');
    expect(doc.pages).toBe(3);
    const text = textOf(doc.blocks);
    for (const page of [1, 2, 3]) expect(text).toContain(`This is page ${page} of the operations handbook.`);
    expect(doc.blocks[0]).toEqual({ type: 'heading', level: 2, text: '1.1 Inventory rules' });
  });

  it('does not detach the caller’s buffer', async () => {
    const bytes = await makeEnglishPdf(1, 3);
    await parseDocument(bytes, 'pdf');
    expect(bytes.byteLength).toBeGreaterThan(0);
    await parseDocument(bytes, 'pdf');
  });

  it('rejects corrupt and encrypted PDFs, and reports a PDF without text as empty', async () => {
    expect(await parseError(utf8('%PDF-1.7\nthis is not a pdf at all'), 'pdf')).toBe('UNSUPPORTED_FILE_FORMAT');
    expect(await parseError(await encryptedPdf(), 'pdf')).toBe('UNSUPPORTED_FILE_FORMAT');
    const blank = await PDFDocument.create();
    blank.addPage();
    expect(await parseError(await blank.save(), 'pdf')).toBe('FILE_EMPTY');
  });
});

describe('parseDocument: DOCX', () => {
  it('keeps headings with their levels, paragraphs and table rows', async () => {
    const doc = await parseDocument(await makeDocxWithHeadingsAndTable(), 'docx');
    expect(doc.blocks).toEqual([
      { type: 'heading', level: 1, text: '第一章 总则' },
      { type: 'paragraph', text: '本手册适用于公司全体员工。员工应当遵守公司的规章制度！' },
      { type: 'heading', level: 2, text: 'Section 1.1 Scope' },
      { type: 'paragraph', text: 'This handbook applies to all employees & contractors with < 2 years of service.' },
      { type: 'heading', level: 1, text: '第二章 通讯录' },
      ...DOCX_TABLE.map((cells) => ({ type: 'table_row', text: cells.join(' | ') })),
      { type: 'paragraph', text: '以上信息如有变动，请及时通知人力资源部。' },
    ]);
    expect(doc.table).toBeNull();
  });

  it('rejects a truncated or fake Word document', async () => {
    const docx = await makeDocxWithHeadingsAndTable();
    expect(await parseError(docx.slice(0, docx.length / 2), 'docx')).toBe('UNSUPPORTED_FILE_FORMAT');
    expect(await parseError(makeStoredZip({ 'word/document.xml': 'not xml' }), 'docx')).toBe('UNSUPPORTED_FILE_FORMAT');
  });
});

describe('parseDocument: spreadsheets and CSV', () => {
  const pairs: [string, string][] = [
    ['如何重置密码？', '在设置页面点击“忘记密码”，按提示操作。'],
    ['年假有几天？', '工作满一年的员工有五天年假。'],
  ];

  function expectQaTable(doc: ParsedDocument) {
    expect(doc.table).toEqual({ columns: ['问题', '答案'], hasHeader: true, rows: pairs });
    expect(doc.blocks[0]).toEqual({
      type: 'table_row',
      text: '问题: 如何重置密码？; 答案: 在设置页面点击“忘记密码”，按提示操作。',
    });
  }

  it('reads an XLSX Q&A sheet with its header', async () => {
    expectQaTable(await parseDocument(await makeXlsxQa(pairs), 'xlsx'));
  });

  it('reads a CSV Q&A file with its header, also from GBK', async () => {
    const doc = await parseDocument(makeCsvQa(pairs), 'csv');
    expectQaTable(doc);
    expect(doc.encoding).toBe('utf-8');
    const csvText = new TextDecoder().decode(makeCsvQa(pairs));
    const gbk = await parseDocument(makeGbkText(csvText), 'csv');
    expectQaTable(gbk);
    expect(gbk.encoding).toBe('gb18030');
  });

  it('names columns when the first row is data', async () => {
    const doc = await parseDocument(utf8('2024-01-01,120,Beijing\n2024-01-02,98,Shanghai\n'), 'csv');
    expect(doc.table?.hasHeader).toBe(false);
    expect(doc.table?.columns).toEqual(['Column 1', 'Column 2', 'Column 3']);
    expect(doc.table?.rows).toHaveLength(2);
    expect(doc.blocks[0]).toEqual({
      type: 'table_row',
      text: 'Column 1: 2024-01-01; Column 2: 120; Column 3: Beijing',
    });
  });

  it('detects a header by the shape of the rows below it', async () => {
    const doc = await parseDocument(utf8('Product,Units\nApples,120\nPears,98\n'), 'csv');
    expect(doc.table?.columns).toEqual(['Product', 'Units']);
    expect(doc.table?.rows).toEqual([
      ['Apples', '120'],
      ['Pears', '98'],
    ]);
  });

  it('turns rich text, formulas, dates and hyperlinks into cell text', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('empty');
    const sheet = workbook.addWorksheet('data');
    sheet.addRow(['Name', 'Total', 'Date', 'Link']);
    sheet.addRow([
      { richText: [{ text: 'Ali' }, { text: 'ce', font: { bold: true } }] },
      { formula: '1+1', result: 2 },
      new Date(Date.UTC(2024, 2, 15)),
      { text: 'Docs', hyperlink: 'https://example.com' },
    ]);
    const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
    const doc = await parseDocument(bytes, 'xlsx');
    expect(doc.table?.rows).toEqual([['Alice', '2', '2024-03-15', 'Docs']]);
  });

  it('reports an empty sheet and rejects a corrupt workbook', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('empty');
    expect(await parseError(new Uint8Array(await workbook.xlsx.writeBuffer()), 'xlsx')).toBe('FILE_EMPTY');
    const xlsx = await makeXlsxQa(pairs);
    expect(await parseError(xlsx.slice(0, 200), 'xlsx')).toBe('UNSUPPORTED_FILE_FORMAT');
  });
});

describe('parseDocument: TXT', () => {
  it('decodes GBK, normalises line ends and finds headings', async () => {
    const text =
      '# 员工手册\r\n\r\n第一章 总则\r\n本手册适用于公司全体员工。\r\n一、适用范围\r\n1.1 Scope\r\nThis applies\r\nto everyone.\r\n';
    const doc = await parseDocument(makeGbkText(text), 'txt');
    expect(doc.encoding).toBe('gb18030');
    expect(doc.blocks).toEqual([
      { type: 'heading', level: 1, text: '员工手册' },
      { type: 'heading', level: 1, text: '第一章 总则' },
      { type: 'paragraph', text: '本手册适用于公司全体员工。' },
      { type: 'heading', level: 3, text: '一、适用范围' },
      { type: 'heading', level: 2, text: '1.1 Scope' },
      { type: 'paragraph', text: 'This applies\nto everyone.' },
    ]);
  });

  it('reports empty and whitespace-only files as FILE_EMPTY', async () => {
    expect(await parseError(EMPTY_FILE.bytes, 'txt')).toBe('FILE_EMPTY');
    expect(await parseError(utf8(' \n\t\r\n '), 'txt')).toBe('FILE_EMPTY');
    expect(await parseError(EMPTY_FILE.bytes, 'pdf')).toBe('FILE_EMPTY');
  });
});
