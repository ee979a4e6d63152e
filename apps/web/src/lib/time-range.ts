import type { TimeFilter } from '@athena/contract';

/**
 * A time filter as a page holds it: '' (any time), a preset, or 'custom' with its two ends (unix
 * ms) picked one at a time. Several lists share it (chat history, the fees center).
 */
export interface TimeChoice {
  time: '' | TimeFilter;
  from: number | null;
  to: number | null;
}

/** What list calls take as `time` (the contract's timeRangeSchema, as sent). */
export type TimeRangeBody = { preset: Exclude<TimeFilter, 'custom'> } | { preset: 'custom'; from: number; to: number };

export const ANY_TIME: TimeChoice = { time: '', from: null, to: null };

/**
 * The `time` of a list call. A custom range is sent only once it has both ends in order; until
 * then the list is not narrowed by time (the picker says a range is missing).
 */
export function timeRangeOf(choice: TimeChoice): TimeRangeBody | null {
  if (choice.time === '') return null;
  if (choice.time !== 'custom') return { preset: choice.time };
  if (choice.from === null || choice.to === null || choice.from > choice.to) return null;
  return { preset: 'custom', from: choice.from, to: choice.to };
}

/** True while "custom" is chosen without a usable range. */
export const isRangeIncomplete = (choice: TimeChoice) => choice.time === 'custom' && timeRangeOf(choice) === null;
