import type { Chunking, TableMode } from '@athena/contract';

/** The contract's bounds for custom chunking (chunkingSchema). */
export const CHUNK_LIMITS = {
  size: { min: 100, max: 4000 },
  overlap: { min: 0, max: 1000 },
  separators: { count: 10, length: 20 },
} as const;

/** What "automatic" means on the server, offered as the starting point for custom settings. */
export const DEFAULT_CUSTOM = { size: 500, overlap: 50 } as const;

/** The form's shape: separators as typed, with `\n` and `\t` written as escapes. */
export interface ChunkingValues {
  mode: 'auto' | 'custom';
  size: number;
  overlap: number;
  separators: string[];
}

export const DEFAULT_CHUNKING: ChunkingValues = { mode: 'auto', ...DEFAULT_CUSTOM, separators: [] };

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\' };

/** `\n\n` as typed → two real line breaks (the server takes separators literally). */
export function unescapeSeparator(typed: string): string {
  return typed.replace(/\\([ntr\\])/g, (_, letter: string) => ESCAPES[letter]);
}

/** A real separator back to what a person types and reads: line break → `\n`. */
export function escapeSeparator(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\t/g, '\\t').replace(/\r/g, '\\r');
}

/**
 * What is wrong with custom settings, as a locale key under knowledge.chunking.errors, or null.
 * Mirrors chunkingSchema so the form says it before the server does.
 */
export function chunkingProblem(values: ChunkingValues): 'size' | 'overlap' | 'overlapHalf' | 'separator' | null {
  if (values.mode === 'auto') return null;
  const { size, overlap } = values;
  if (!Number.isInteger(size) || size < CHUNK_LIMITS.size.min || size > CHUNK_LIMITS.size.max) return 'size';
  if (!Number.isInteger(overlap) || overlap < CHUNK_LIMITS.overlap.min || overlap > CHUNK_LIMITS.overlap.max)
    return 'overlap';
  if (overlap >= size / 2) return 'overlapHalf';
  const separators = values.separators.map(unescapeSeparator);
  if (
    separators.length > CHUNK_LIMITS.separators.count ||
    separators.some((s) => s.length === 0 || s.length > CHUNK_LIMITS.separators.length)
  )
    return 'separator';
  return null;
}

/** The request body's `chunking` (call only when chunkingProblem is null). */
export function toChunking(values: ChunkingValues): Chunking {
  if (values.mode === 'auto') return { mode: 'auto' };
  const separators = [...new Set(values.separators.map(unescapeSeparator).filter(Boolean))];
  return { mode: 'custom', size: values.size, overlap: values.overlap, separators };
}

export function fromChunking(chunking: Chunking | null | undefined): ChunkingValues {
  if (!chunking || chunking.mode === 'auto') return DEFAULT_CHUNKING;
  return {
    mode: 'custom',
    size: chunking.size,
    overlap: chunking.overlap,
    separators: chunking.separators.map(escapeSeparator),
  };
}

/** A spreadsheet's choice: Q&A with two columns, or one segment per row. */
export interface TableValues {
  mode: 'qa' | 'row';
  question: number;
  answer: number;
}

const QUESTION = /question|^q$|问题|問題|提问|提問|问|問/i;
const ANSWER = /answer|^a$|答案|回答|回复|回覆|答/i;

/**
 * The columns a Q&A sheet most likely uses: headers that say question/answer (问题/答案…), else
 * the first two columns. One-column sheets (or none) are best read row by row.
 */
export function guessTableValues(columns: readonly string[] | null): TableValues {
  const list = columns ?? [];
  if (list.length < 2) return { mode: 'row', question: 0, answer: 0 };
  const question = list.findIndex((name) => QUESTION.test(name.trim()));
  const answer = list.findIndex((name, index) => index !== question && ANSWER.test(name.trim()));
  const q = question === -1 ? 0 : question;
  const a = answer === -1 ? (q === 0 ? 1 : 0) : answer;
  return { mode: 'qa', question: q, answer: a };
}

export const toTableMode = (values: TableValues): TableMode =>
  values.mode === 'qa'
    ? { mode: 'qa', question_column: values.question, answer_column: values.answer }
    : { mode: 'row' };

/** Q&A needs two different columns. */
export const tableProblem = (values: TableValues) => values.mode === 'qa' && values.question === values.answer;
