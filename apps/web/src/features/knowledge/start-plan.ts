import type { Chunking, KnowledgeUnit, knowledgeRoutes, RouteBody, TableMode } from '@athena/contract';
import { isSpreadsheet } from './file-checks.ts';

type StartBody = RouteBody<typeof knowledgeRoutes.unitStart>;

/** The contract's most units per start call. */
const MAX_IDS = 50;

/**
 * The `unit/start` calls for a batch: one chunking for all, each spreadsheet with its own table
 * mode (sheets with the same mode go together), at most 50 ids per call.
 */
export function startCalls(
  units: readonly KnowledgeUnit[],
  chunking: Chunking,
  tableModeOf: (unit: KnowledgeUnit) => TableMode | null,
): StartBody[] {
  const groups = new Map<string, { table_mode: TableMode | null; ids: string[] }>();
  for (const unit of units) {
    const tableMode = isSpreadsheet(unit.file_kind) ? tableModeOf(unit) : null;
    const key = JSON.stringify(tableMode);
    const group = groups.get(key) ?? { table_mode: tableMode, ids: [] };
    group.ids.push(unit.id);
    groups.set(key, group);
  }
  return [...groups.values()].flatMap(({ table_mode, ids }) => {
    const calls: StartBody[] = [];
    for (let i = 0; i < ids.length; i += MAX_IDS) calls.push({ ids: ids.slice(i, i + MAX_IDS), chunking, table_mode });
    return calls;
  });
}
