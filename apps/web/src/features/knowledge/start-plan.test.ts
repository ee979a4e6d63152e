import { type KnowledgeUnit, knowledgeRoutes, type TableMode } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { startCalls } from './start-plan.ts';

const unit = (id: string, kind: KnowledgeUnit['file_kind']) => ({ id, file_kind: kind }) as KnowledgeUnit;

describe('startCalls', () => {
  it('sends documents together and each spreadsheet with its own table mode', () => {
    const modes: Record<string, TableMode> = {
      s1: { mode: 'qa', question_column: 0, answer_column: 1 },
      s2: { mode: 'row' },
      s3: { mode: 'qa', question_column: 0, answer_column: 1 },
    };
    const calls = startCalls(
      [unit('d1', 'pdf'), unit('s1', 'xlsx'), unit('d2', 'docx'), unit('s2', 'csv'), unit('s3', 'csv')],
      { mode: 'auto' },
      (u) => modes[u.id] ?? null,
    );
    expect(calls).toEqual([
      { ids: ['d1', 'd2'], chunking: { mode: 'auto' }, table_mode: null },
      {
        ids: ['s1', 's3'],
        chunking: { mode: 'auto' },
        table_mode: { mode: 'qa', question_column: 0, answer_column: 1 },
      },
      { ids: ['s2'], chunking: { mode: 'auto' }, table_mode: { mode: 'row' } },
    ]);
    for (const call of calls) expect(knowledgeRoutes.unitStart.body.safeParse(call).success).toBe(true);
  });

  it('never puts more than 50 ids in one call', () => {
    const units = Array.from({ length: 120 }, (_, i) => unit(`u${i}`, 'txt'));
    const calls = startCalls(units, { mode: 'auto' }, () => null);
    expect(calls.map((c) => c.ids.length)).toEqual([50, 50, 20]);
  });
});
