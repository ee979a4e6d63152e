import type { AgentToolStep } from '@athena/contract';

/**
 * A `tool` event into an answer's steps: the same `id` replaces the step where it stands (a call
 * that finished), a new `id` goes last (a call that started). Steps keep the order calls began.
 */
export function upsertStep(steps: readonly AgentToolStep[], step: AgentToolStep): AgentToolStep[] {
  const at = steps.findIndex((item) => item.id === step.id);
  if (at === -1) return [...steps, step];
  return steps.map((item, index) => (index === at ? step : item));
}

/** The arguments as the model wrote them, pretty-printed when they are JSON (cut JSON stays as written). */
export function prettyArguments(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return '';
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return text;
  }
}

/** A call's duration for the step's header: `850 ms`, `1.2 s`, `75 s`; empty when unknown. */
export function formatDuration(ms: number | null): string {
  if (ms === null || ms < 0) return '';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.round(ms / 1000)} s`;
}

/** How a step is shown: a call still `running` in an answer that no longer streams never finished. */
export type ShownStepStatus = AgentToolStep['status'] | 'unfinished';

export function shownStatus(step: AgentToolStep, answerStreaming: boolean): ShownStepStatus {
  return step.status === 'running' && !answerStreaming ? 'unfinished' : step.status;
}
