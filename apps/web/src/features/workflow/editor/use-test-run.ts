import { workflowRunRoutes } from '@athena/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { type ApiError, api } from '../../../lib/api-client.ts';
import { setRunStatus } from './editor-store.ts';
import { followTestRun } from './follow-run.ts';
import { applyRunEvent, badgesOf, emptyRun, type LiveRun, type RunEvent } from './live-run.ts';

export type TestRunPhase = 'idle' | 'starting' | 'running' | 'reconnecting' | 'finished' | 'refused' | 'lost';

export interface TestRunState {
  phase: TestRunPhase;
  run: LiveRun;
  /** Why the run did not start, or why following it failed, in the reader's language. */
  error: ApiError | null;
  /** When the run was asked for here, to show time passing until the summary's own elapsed time. */
  startedAt: number | null;
}

const idle = (): TestRunState => ({ phase: 'idle', run: emptyRun(), error: null, startedAt: null });

/**
 * A test run of the saved draft, followed live (follow-run.ts). Each event also lights up its node
 * on the canvas; leaving the editor stops reading and clears the badges.
 */
export function useTestRun(workflowId: string) {
  const [state, setState] = useState<TestRunState>(idle);
  const runRef = useRef<LiveRun>(emptyRun());
  const controller = useRef<AbortController | null>(null);

  useEffect(
    () => () => {
      controller.current?.abort();
      setRunStatus({});
    },
    [],
  );

  const onEvent = useCallback((event: RunEvent) => {
    const run = applyRunEvent(runRef.current, event);
    runRef.current = run;
    // A model's chunks change no badge; hundreds of them need not redraw the canvas.
    if (event.event !== 'text_chunk') setRunStatus(badgesOf(run));
    setState((current) => ({
      ...current,
      run,
      phase: run.summary ? 'finished' : run.runId ? 'running' : current.phase,
    }));
  }, []);

  const start = useCallback(
    async (inputs: Record<string, unknown>, query: string) => {
      controller.current?.abort();
      const own = new AbortController();
      controller.current = own;
      runRef.current = emptyRun();
      setRunStatus({});
      setState({ ...idle(), phase: 'starting', startedAt: Date.now() });
      const result = await followTestRun({
        body: { workflow_id: workflowId, inputs, query },
        signal: own.signal,
        onEvent,
        current: () => runRef.current,
        onReconnecting: () => setState((current) => ({ ...current, phase: 'reconnecting' })),
      });
      if (result.outcome === 'refused' || result.outcome === 'lost') {
        const { error } = result;
        setState((current) => ({ ...current, phase: result.outcome, error }));
      }
    },
    [workflowId, onEvent],
  );

  /** Asks the server to cancel; the run then ends failed (cancelled) and its stream says so. */
  const cancel = useCallback(async () => {
    const runId = runRef.current.runId;
    if (!runId || runRef.current.summary) return;
    await api(workflowRunRoutes.cancel, { run_id: runId });
  }, []);

  /** Stops following (the panel closed) and clears the canvas's badges. */
  const reset = useCallback(() => {
    controller.current?.abort();
    runRef.current = emptyRun();
    setRunStatus({});
    setState(idle());
  }, []);

  return { ...state, start, cancel, reset };
}
