import { type StreamBody, workflowRunStreams } from '@athena/contract';
import { ApiError } from '../../../lib/api-client.ts';
import { sleepUnlessAborted } from '../../../lib/live-follow.ts';
import { isAbortError, type StreamClientDeps, stream } from '../../../lib/stream-client.ts';
import type { LiveRun, RunEvent } from './live-run.ts';

/** Reconnects after a dropped stream: this many tries in a row, waiting a little longer each time. */
export const RECONNECT_TRIES = 5;
const reconnectDelay = (attempt: number) => Math.min(500 * attempt, 3_000);

export type FollowOutcome =
  | { outcome: 'ended' }
  | { outcome: 'aborted' }
  /** Refused before it started (an invalid draft, a missing input), or the run is gone. */
  | { outcome: 'refused'; error: ApiError }
  /** The connection could not be had back. */
  | { outcome: 'lost'; error: ApiError };

export interface FollowOptions {
  body: StreamBody<typeof workflowRunStreams.run>;
  signal: AbortSignal;
  onEvent: (event: RunEvent) => void;
  /** The run as the events so far have built it: its id and the number of its last event. */
  current: () => Pick<LiveRun, 'runId' | 'seq'>;
  onReconnecting?: () => void;
  deps?: StreamClientDeps;
  /** The two streams; a test points them at a stand-in server. */
  streams?: Pick<typeof workflowRunStreams, 'run' | 'events'>;
  delay?: (attempt: number) => number;
}

const lost = (): FollowOutcome => ({ outcome: 'lost', error: new ApiError('', undefined, 'network') });

/**
 * Starts a test run and follows it to its `run_finished`. When the connection drops first,
 * `workflow/run/events` picks up after the last event seen, so nothing is missed or shown twice.
 * Stopping (the signal) stops reading, not the run: only cancel stops a run.
 */
export async function followTestRun(options: FollowOptions): Promise<FollowOutcome> {
  const { signal, onEvent, deps } = options;
  const streams = options.streams ?? workflowRunStreams;
  const delay = options.delay ?? reconnectDelay;
  let tries = 0;
  for (;;) {
    const { runId, seq } = options.current();
    try {
      const { ended } = runId
        ? await stream(streams.events, { run_id: runId, after_seq: seq }, { signal, onEvent, deps })
        : await stream(streams.run, options.body, { signal, onEvent, deps });
      if (ended) return { outcome: 'ended' };
    } catch (error) {
      if (isAbortError(error) || signal.aborted) return { outcome: 'aborted' };
      if (error instanceof ApiError && error.kind === 'business') return { outcome: 'refused', error };
    }
    // Lost before the run had a number to reconnect to: there is nothing to follow.
    if (!options.current().runId) return lost();
    // A connection that brought events earns a fresh set of tries.
    tries = options.current().seq > seq ? 1 : tries + 1;
    if (tries > RECONNECT_TRIES) return lost();
    options.onReconnecting?.();
    await sleepUnlessAborted(delay(tries), signal);
    if (signal.aborted) return { outcome: 'aborted' };
  }
}
