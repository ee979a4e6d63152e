import {
  type Chunking,
  formatMessage,
  isErrorKey,
  type KnowledgeFileKind,
  type KnowledgeUnit,
  type Language,
  type Segment,
  type TableMode,
  UNIT_STATUS_LABELS,
  type UnitStatus,
} from '@athena/contract';
import { AppError } from '../../platform/http/app-error.ts';
import type { SegmentFacts, SegmentRow, UnitRow } from './knowledge.repo.ts';

// Rows as the contract shows them. No queries here: what a shape needs beyond its row is looked up
// by the repo and passed in.

/** A unit is in a state that does not allow the action; the message names the state in words. */
export const stateConflict = (status: string, language: Language) =>
  new AppError('UNIT_STATE_CONFLICT', { status: UNIT_STATUS_LABELS[status as UnitStatus]?.[language] ?? status });

export function toUnit(row: UnitRow, language: Language): KnowledgeUnit {
  const code = row.errorCode;
  return {
    id: row.id,
    knowledge_id: row.knowledgeId,
    file_name: row.fileName,
    file_kind: row.fileKind as KnowledgeFileKind,
    size: row.size,
    content_hash: row.contentHash,
    status: row.status as UnitStatus,
    progress: row.progress,
    error: code
      ? {
          code,
          message: isErrorKey(code)
            ? formatMessage(code, language, { detail: row.errorDetail ?? '' })
            : (row.errorDetail ?? code),
        }
      : null,
    chunking: row.chunking as Chunking,
    table_mode: (row.tableMode as TableMode | null) ?? null,
    segment_count: row.segmentCount,
    token_count: row.tokenCount,
    columns: row.columns ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    indexed_at: row.indexedAt?.toISOString() ?? null,
  };
}

/** Segments with the file each came from, as a list shows them. */
export const toSegments = (rows: { segment: SegmentRow; fileName: string }[], facts: SegmentFacts) =>
  rows.map(({ segment, fileName }) => toSegment(segment, fileName, facts));

/** A segment, `embedded` meaning a vector for its base's current key. */
export function toSegment(segment: SegmentRow, fileName: string, facts: SegmentFacts): Segment {
  return {
    id: segment.id,
    knowledge_id: segment.knowledgeId,
    unit_id: segment.unitId,
    file_name: fileName,
    position: segment.position,
    question: segment.question,
    answer: segment.answer,
    content: segment.content,
    enabled: segment.enabled,
    tokens: segment.tokens,
    hit_count: facts.hits.get(segment.id) ?? 0,
    embedded: facts.embedded.has(segment.id),
    manual: segment.manual,
    updated_at: segment.updatedAt.toISOString(),
  };
}
