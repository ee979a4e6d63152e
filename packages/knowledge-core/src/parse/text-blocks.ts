import type { Block } from '../types.ts';
import { headingLine } from './heading-line.ts';

/**
 * Lines of plain text → heading and paragraph blocks. A paragraph ends at a blank line, before a
 * heading, or after a line that ends a sentence; other line breaks are wrapping inside it.
 */

/**
 * How wrapped lines are put back together: TXT keeps its authored line breaks; PDF lines are
 * layout wrapping, so they are re-flowed (no space between CJK characters, one between words).
 */
export type LineJoin = 'keep-breaks' | 'reflow';

const CLOSING_QUOTES = /[”’」』）)"'》]+$/;
const SENTENCE_END = /[。！？；…!?;.:：]$/;
const CJK = /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]/;

function endsSentence(line: string): boolean {
  return SENTENCE_END.test(line.replace(CLOSING_QUOTES, ''));
}

function joinLines(lines: string[], join: LineJoin): string {
  if (join === 'keep-breaks') return lines.join('\n');
  let text = lines[0];
  for (const line of lines.slice(1)) {
    const glue = CJK.test(text.at(-1) ?? '') && CJK.test(line[0]) ? '' : ' ';
    text += glue + line;
  }
  return text;
}

export function textToBlocks(text: string, join: LineJoin): Block[] {
  const blocks: Block[] = [];
  let pending: string[] = [];
  const flush = () => {
    if (pending.length > 0) blocks.push({ type: 'paragraph', text: joinLines(pending, join) });
    pending = [];
  };
  for (const rawLine of text.split('\n')) {
    const line = rawLine.trim();
    if (line === '') {
      flush();
      continue;
    }
    const heading = headingLine(line);
    if (heading) {
      flush();
      blocks.push({ type: 'heading', level: heading.level, text: heading.text });
      continue;
    }
    pending.push(line);
    if (endsSentence(line)) flush();
  }
  flush();
  return blocks;
}
