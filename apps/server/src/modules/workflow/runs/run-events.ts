import { ERRORS, type ErrorKey, formatMessage, type Language, type RunError } from '@athena/contract';
import type { EngineEvent, NodeError, RunSummary } from '@athena/workflow-engine';
import type { StoredError } from '../run.schema.ts';
import type { RunEnding, StoredEvent } from './run.repo.ts';
import { forStorage } from './stored-payload.ts';

// A run's events as they are numbered, kept and sent. They are kept as the engine made them
// (errors as catalogue keys) and localised for each reader when sent, so a reconnect in another
// language reads its own.

/** What run_finished carries, before its error is localised. */
export interface StoredSummary extends Omit<RunSummary, 'failure'> {
  run_id: string;
  failure: { reason: string; error: StoredError; node_id: string | null } | null;
}

const isKey = (code: string): code is ErrorKey => Object.hasOwn(ERRORS, code);

/** A stored error as a reader sees it: an unknown key (never expected) reads as a node failure. */
export function presentError(error: StoredError, language: Language): RunError {
  const key: ErrorKey = isKey(error.code) ? error.code : 'WORKFLOW_NODE_FAILED';
  const params = isKey(error.code) ? error.params : { detail: error.detail || error.code };
  return { code: ERRORS[key].code, key, msg: formatMessage(key, language, params), detail: error.detail };
}

export const storedError = (error: NodeError): StoredError => ({
  code: error.code,
  params: error.params,
  detail: error.detail.slice(0, 2_000),
});

/** The event as its stream sends it to a reader of `language`. */
export function presentEvent(stored: StoredEvent['event'], language: Language): { event: string; data: unknown } {
  const data = stored.data as Record<string, unknown>;
  switch (stored.event) {
    case 'node_retried':
      return { event: stored.event, data: { ...data, error: presentError(data.error as StoredError, language) } };
    case 'node_finished':
      return {
        event: stored.event,
        data: { ...data, error: data.error ? presentError(data.error as StoredError, language) : null },
      };
    case 'run_finished': {
      const summary = data as unknown as StoredSummary;
      const failure = summary.failure && { ...summary.failure, error: presentError(summary.failure.error, language) };
      return { event: stored.event, data: { ...summary, failure } };
    }
    case 'error': {
      const { key, kind } = data as { key: ErrorKey; kind: string };
      return { event: stored.event, data: { code: ERRORS[key].code, msg: formatMessage(key, language), kind } };
    }
    default:
      return stored;
  }
}

/**
 * The engine's event in the form the run keeps, or null for the two the run writes itself
 * (run_started names the run; run_finished waits until the run is stored).
 */
export function toStoredEvent(event: EngineEvent): StoredEvent['event'] | null {
  switch (event.type) {
    case 'node_started':
      return {
        event: 'node_started',
        data: {
          execution_id: event.execution_id,
          node_id: event.node_id,
          node_type: event.node_type,
          title: event.title,
          scope: event.scope,
        },
      };
    case 'node_retried':
      return {
        event: 'node_retried',
        data: {
          execution_id: event.execution_id,
          node_id: event.node_id,
          attempt: event.attempt,
          error: storedError(event.error),
        },
      };
    case 'text_chunk':
      return { event: 'text_chunk', data: { node_id: event.node_id, text: event.text } };
    case 'node_finished':
      return {
        event: 'node_finished',
        data: {
          execution_id: event.execution_id,
          node_id: event.node_id,
          status: event.status,
          inputs: forStorage(event.inputs),
          outputs: forStorage(event.outputs),
          error: event.error && storedError(event.error),
          elapsed_ms: Math.round(event.elapsed_ms),
          tokens: event.tokens,
          attempts: event.attempts,
        },
      };
    default:
      return null;
  }
}

export function storedSummary(runId: string, summary: RunSummary): StoredSummary {
  return {
    run_id: runId,
    result: summary.result,
    outputs: forStorage(summary.outputs),
    answer: summary.answer,
    failure: summary.failure && {
      reason: summary.failure.reason,
      error: storedError(summary.failure.error),
      node_id: summary.failure.node_id,
    },
    steps: summary.steps,
    tokens: summary.tokens,
    elapsed_ms: Math.round(summary.elapsed_ms),
  };
}

/** The summary of a run from its stored ending (its row, or what a single node wrote). */
export function summaryOfEnding(runId: string, ending: RunEnding): StoredSummary {
  const { failureReason, error } = ending;
  return {
    run_id: runId,
    result: ending.result,
    outputs: ending.outputs,
    answer: ending.answer,
    failure: failureReason && error ? { reason: failureReason, error, node_id: null } : null,
    steps: ending.steps,
    tokens: ending.tokens,
    elapsed_ms: ending.elapsedMs,
  };
}
