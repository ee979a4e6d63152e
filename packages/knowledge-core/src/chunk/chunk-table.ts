import { countTokens } from '../text/count-tokens.ts';
import { type Chunk, KnowledgeFileError, type ParsedTable, type TableModeOptions } from '../types.ts';

type QaMode = Extract<TableModeOptions, { mode: 'qa' }>;

function validColumn(index: number, table: ParsedTable): boolean {
  return Number.isInteger(index) && index >= 0 && index < table.columns.length;
}

/** One Q&A segment per row that has a question; rows without one have nothing to match against. */
export function qaChunks(table: ParsedTable, mode: QaMode): Chunk[] {
  const { question_column: questionColumn, answer_column: answerColumn } = mode;
  if (!validColumn(questionColumn, table) || !validColumn(answerColumn, table) || questionColumn === answerColumn) {
    throw new KnowledgeFileError(
      'TABLE_COLUMNS_INVALID',
      `Question column ${questionColumn} and answer column ${answerColumn} must be different columns of 0–${table.columns.length - 1}.`,
    );
  }
  const chunks: Chunk[] = [];
  for (const row of table.rows) {
    const question = (row[questionColumn] ?? '').trim();
    if (question === '') continue;
    const answer = (row[answerColumn] ?? '').trim();
    chunks.push({ question, answer, content: '', tokens: countTokens(`${question}\n${answer}`) });
  }
  return chunks;
}
