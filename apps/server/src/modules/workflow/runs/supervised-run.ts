import type { Server } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { ServerShuttingDown, trackStream } from '../../../platform/http/open-streams.ts';
import type { LiveRun, LiveRuns } from './live-runs.ts';
import type { RunRepo } from './run.repo.ts';
import type { StoredSummary } from './run-events.ts';

/** How often a running run proves its process alive; older than RUN_STALE_MS, it lost its process. */
export const PROGRESS_MS = 5_000;
export const RUN_STALE_MS = 30_000;

export interface SupervisionDeps {
  repo: Pick<RunRepo, 'touch'>;
  live: LiveRuns;
  log: FastifyBaseLogger;
  /** The HTTP server whose shutdown must wait for runs (open-streams' drain), once routes are registered. */
  server: () => Server | null;
}

/**
 * What every run executing in this process needs, whole runs and single nodes alike: a signal that
 * cancel (here or through the bus), a shutdown and a parent run abort; a place among the live runs;
 * a progress tick so the interrupted-runs sweep does not take it for a run of a dead process. The
 * parent's listener is removed when the run ends: a parent calling a thousand sub-workflows would
 * otherwise keep a thousand closures and trip Node's MaxListeners warning.
 */
export function superviseRun(
  deps: SupervisionDeps,
  base: { id: string; spaceId: string; createdBy: string | null; parentSignal?: AbortSignal },
) {
  const controller = new AbortController();
  const parent = base.parentSignal;
  const onParentAbort = () => controller.abort(parent?.reason);
  if (parent) {
    if (parent.aborted) controller.abort(parent.reason);
    else parent.addEventListener('abort', onParentAbort, { once: true });
  }
  let settle: (summary: StoredSummary) => void = () => {};
  const run: LiveRun = {
    id: base.id,
    spaceId: base.spaceId,
    createdBy: base.createdBy,
    events: [],
    listeners: new Set(),
    controller,
    done: new Promise((resolve) => {
      settle = resolve;
    }),
  };
  deps.live.add(run);
  const server = deps.server();
  if (server) {
    trackStream(server, {
      interrupt: () => controller.abort(new ServerShuttingDown()),
      destroy: () => {},
      closed: run.done.then(() => {}),
    });
  }
  const progress = setInterval(() => {
    deps.repo.touch(run.id).catch((error) => deps.log.warn({ err: error, run: run.id }, 'run progress not saved'));
  }, PROGRESS_MS);

  return {
    run,
    controller,
    /** The engine is done: nothing more proves the run alive, its end is being written. */
    stopProgress: () => clearInterval(progress),
    /** The run is stored as finished (or abandoned): readers here get its summary. */
    end(summary: StoredSummary) {
      clearInterval(progress);
      parent?.removeEventListener('abort', onParentAbort);
      deps.live.remove(run.id);
      settle(summary);
    },
  };
}
