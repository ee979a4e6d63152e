import { chunkingSchema, tableModeSchema } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import {
  type ChunkingValues,
  chunkingProblem,
  DEFAULT_CHUNKING,
  escapeSeparator,
  fromChunking,
  guessTableValues,
  tableProblem,
  toChunking,
  toTableMode,
  unescapeSeparator,
} from './chunking.ts';

const custom = (change: Partial<ChunkingValues> = {}): ChunkingValues => ({
  mode: 'custom',
  size: 800,
  overlap: 80,
  separators: [],
  ...change,
});

describe('chunking settings', () => {
  it('turns typed escapes into the characters the server splits on, and back', () => {
    expect(unescapeSeparator('\\n\\n')).toBe('\n\n');
    expect(unescapeSeparator('###')).toBe('###');
    expect(unescapeSeparator('\\t|\\\\')).toBe('\t|\\');
    for (const typed of ['\\n\\n', '###', '\\t', '。', 'a\\\\n']) {
      expect(escapeSeparator(unescapeSeparator(typed))).toBe(typed);
    }
  });

  it('finds the same problems as the contract, before the server does', () => {
    expect(chunkingProblem(DEFAULT_CHUNKING)).toBeNull();
    expect(chunkingProblem(custom())).toBeNull();
    expect(chunkingProblem(custom({ size: 99 }))).toBe('size');
    expect(chunkingProblem(custom({ size: 4001 }))).toBe('size');
    expect(chunkingProblem(custom({ overlap: -1 }))).toBe('overlap');
    expect(chunkingProblem(custom({ size: 200, overlap: 100 }))).toBe('overlapHalf');
    expect(chunkingProblem(custom({ separators: ['x'.repeat(21)] }))).toBe('separator');
    expect(chunkingProblem(custom({ separators: Array(11).fill('#') }))).toBe('separator');
    // What passes here passes the contract; what fails here fails it.
    for (const values of [custom(), custom({ separators: ['\\n\\n', '###'] }), DEFAULT_CHUNKING]) {
      expect(chunkingSchema.safeParse(toChunking(values)).success).toBe(true);
    }
    expect(chunkingSchema.safeParse(toChunking(custom({ size: 200, overlap: 100 }))).success).toBe(false);
  });

  it('builds the request body and reads saved settings back into the form', () => {
    expect(toChunking(DEFAULT_CHUNKING)).toEqual({ mode: 'auto' });
    const body = toChunking(custom({ separators: ['\\n\\n', '\\n\\n', '###'] }));
    expect(body).toEqual({ mode: 'custom', size: 800, overlap: 80, separators: ['\n\n', '###'] });
    expect(fromChunking(body)).toEqual(custom({ separators: ['\\n\\n', '###'] }));
    expect(fromChunking({ mode: 'auto' })).toEqual(DEFAULT_CHUNKING);
  });

  it('guesses Q&A columns from headers in English and Chinese', () => {
    expect(guessTableValues(['编号', '问题', '答案'])).toEqual({ mode: 'qa', question: 1, answer: 2 });
    expect(guessTableValues(['Answer', 'Question'])).toEqual({ mode: 'qa', question: 1, answer: 0 });
    expect(guessTableValues(['標題', '內容'])).toEqual({ mode: 'qa', question: 0, answer: 1 });
    expect(guessTableValues(['only'])).toMatchObject({ mode: 'row' });
    expect(guessTableValues(null)).toMatchObject({ mode: 'row' });
  });

  it('builds table modes the contract accepts and refuses one column for both', () => {
    expect(toTableMode({ mode: 'qa', question: 1, answer: 2 })).toEqual({
      mode: 'qa',
      question_column: 1,
      answer_column: 2,
    });
    expect(toTableMode({ mode: 'row', question: 0, answer: 0 })).toEqual({ mode: 'row' });
    expect(tableModeSchema.safeParse(toTableMode({ mode: 'qa', question: 0, answer: 1 })).success).toBe(true);
    expect(tableProblem({ mode: 'qa', question: 1, answer: 1 })).toBe(true);
    expect(tableProblem({ mode: 'row', question: 0, answer: 0 })).toBe(false);
  });
});
