/**
 * Recognises heading lines in plain text (TXT, PDF), where there is no markup to say so. Chinese
 * documents number their structure (第一章, 一、, （一）, 1.1); Markdown files use #.
 */

export interface HeadingLine {
  level: number;
  text: string;
}

// Longer lines are body text that happens to start with a number.
const MAX_HEADING_LENGTH = 50;
const CHINESE_NUMERAL = '[0-9０-９一二三四五六七八九十百千零〇两]+';

const NUMBERED_PATTERNS: [RegExp, number][] = [
  [new RegExp(`^第${CHINESE_NUMERAL}(篇|编|部分|卷|章)`), 1],
  [new RegExp(`^第${CHINESE_NUMERAL}节`), 2],
  [new RegExp(`^第${CHINESE_NUMERAL}条`), 3],
  [/^[一二三四五六七八九十]+、/, 3],
  [/^[（(][一二三四五六七八九十]+[)）]/, 4],
];

const MARKDOWN = /^(#{1,6})\s+(.+?)(\s+#+)?\s*$/;
const DECIMAL = /^(\d+(?:\.\d+)+)\.?\s+\S/;
// A heading never ends like a sentence or a clause.
const SENTENCE_LIKE_END = /[。！？；，、：.!?;,:]$/;

export function headingLine(rawLine: string): HeadingLine | null {
  const line = rawLine.trim();
  const markdown = MARKDOWN.exec(line);
  if (markdown) return { level: markdown[1].length, text: markdown[2].trim() };
  if (line.length > MAX_HEADING_LENGTH || SENTENCE_LIKE_END.test(line)) return null;
  for (const [pattern, level] of NUMBERED_PATTERNS) {
    if (pattern.test(line)) return { level, text: line };
  }
  const decimal = DECIMAL.exec(line);
  // "1.1 Scope" is level 2, "1.1.1 Terms" level 3.
  if (decimal) return { level: decimal[1].split('.').length, text: line };
  return null;
}
