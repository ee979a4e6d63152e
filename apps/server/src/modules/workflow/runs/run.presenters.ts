import type { Language, NodeRun, WorkflowRun } from '@athena/contract';
import type { workflowNodeRuns } from '../run.schema.ts';
import type { RunRow } from './run.repo.ts';
import { presentError, type StoredSummary } from './run-events.ts';

type NodeRow = typeof workflowNodeRuns.$inferSelect;

export function presentRun(row: RunRow, language: Language): WorkflowRun {
  return {
    id: row.id,
    workflow_id: row.workflowId,
    version_id: row.versionId,
    trigger: row.trigger as WorkflowRun['trigger'],
    status: row.status as WorkflowRun['status'],
    result: row.result as WorkflowRun['result'],
    failure_reason: row.failureReason as WorkflowRun['failure_reason'],
    error: row.error && presentError(row.error, language),
    inputs: row.inputs,
    outputs: row.outputs,
    answer: row.answer,
    steps: row.steps,
    tokens: row.tokens,
    elapsed_ms: row.elapsedMs,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

export function presentNodeRun(row: NodeRow, language: Language): NodeRun {
  return {
    execution_id: row.executionId,
    node_id: row.nodeId,
    node_type: row.nodeType,
    title: row.title,
    scope: row.scope,
    status: row.status as NodeRun['status'],
    inputs: row.inputs,
    outputs: row.outputs,
    error: row.error && presentError(row.error, language),
    tokens: row.tokens,
    attempts: row.attempts,
    elapsed_ms: row.elapsedMs,
    started_at: row.startedAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

export function presentSummary(summary: StoredSummary, language: Language) {
  return {
    ...summary,
    failure: summary.failure && {
      ...summary.failure,
      reason: summary.failure.reason as NonNullable<WorkflowRun['failure_reason']>,
      error: presentError(summary.failure.error, language),
    },
  };
}
