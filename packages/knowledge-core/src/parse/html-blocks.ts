import type { Block } from '../types.ts';

/**
 * The HTML mammoth produces → blocks. Its output is a small, regular subset (h1–h6, p, ul/ol/li,
 * table/tr/td/th, inline formatting, br, img), so a tag tokenizer is enough; no DOM dependency.
 */

const TOKEN = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b[^>]*?(\/?)>|([^<]+)/g;
const HEADING = /^h([1-6])$/;
// Closing or opening one of these ends the text gathered so far.
const BLOCK_TAGS = new Set(['p', 'li', 'ul', 'ol', 'table', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'div', 'blockquote']);

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? entity;
  });
}

function clean(text: string): string {
  return text
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .trim();
}

class BlockCollector {
  readonly blocks: Block[] = [];
  private text = '';
  private headingLevel = 0;
  // Depth of nested tables; only the outermost table's rows become table_row blocks.
  private tableDepth = 0;
  private cells: string[] | null = null;
  private cell: string | null = null;

  open(tag: string): void {
    if (tag === 'table') {
      if (this.tableDepth === 0) this.flush();
      this.tableDepth++;
      return;
    }
    if (this.tableDepth > 0) {
      this.openInTable(tag);
      return;
    }
    if (BLOCK_TAGS.has(tag)) this.flush();
    const heading = HEADING.exec(tag);
    if (heading) this.headingLevel = Number(heading[1]);
    if (tag === 'br') this.text += '\n';
  }

  close(tag: string): void {
    if (tag === 'table') {
      this.tableDepth = Math.max(0, this.tableDepth - 1);
      if (this.tableDepth === 0) this.endRow();
      return;
    }
    if (this.tableDepth > 0) this.closeInTable(tag);
    else if (BLOCK_TAGS.has(tag)) this.flush();
  }

  addText(text: string): void {
    if (this.cell !== null) this.cell += text;
    else if (this.tableDepth === 0) this.text += text;
  }

  finish(): Block[] {
    this.endRow();
    this.flush();
    return this.blocks;
  }

  private openInTable(tag: string): void {
    if (this.tableDepth > 1) {
      // A nested table's cells become part of the outer cell's text.
      if (this.cell !== null && (tag === 'td' || tag === 'th' || tag === 'p')) this.cell += ' ';
      return;
    }
    if (tag === 'tr') {
      this.endRow();
      this.cells = [];
    } else if (tag === 'td' || tag === 'th') {
      this.endCell();
      this.cells ??= [];
      this.cell = '';
    } else if (this.cell !== null && (tag === 'p' || tag === 'br' || tag === 'li')) {
      this.cell += ' ';
    }
  }

  private closeInTable(tag: string): void {
    if (this.tableDepth > 1) return;
    if (tag === 'td' || tag === 'th') this.endCell();
    else if (tag === 'tr') this.endRow();
  }

  private endCell(): void {
    if (this.cell === null) return;
    this.cells?.push(clean(this.cell).replace(/\n/g, ' '));
    this.cell = null;
  }

  private endRow(): void {
    this.endCell();
    if (this.cells?.some((cell) => cell !== '')) {
      this.blocks.push({ type: 'table_row', text: this.cells.join(' | ') });
    }
    this.cells = null;
  }

  private flush(): void {
    const text = clean(this.text);
    if (text !== '') {
      this.blocks.push(
        this.headingLevel > 0
          ? { type: 'heading', level: this.headingLevel, text: text.replace(/\n/g, ' ') }
          : { type: 'paragraph', text },
      );
    }
    this.text = '';
    this.headingLevel = 0;
  }
}

export function htmlToBlocks(html: string): Block[] {
  const collector = new BlockCollector();
  for (const match of html.matchAll(TOKEN)) {
    const [, closing, tagName, selfClosing, text] = match;
    if (text !== undefined) {
      collector.addText(decodeEntities(text));
      continue;
    }
    const tag = tagName.toLowerCase();
    if (closing) collector.close(tag);
    else {
      collector.open(tag);
      if (selfClosing) collector.close(tag);
    }
  }
  return collector.finish();
}
