import type { StoredEvent } from './run.repo.ts';
import type { StoredSummary } from './run-events.ts';

/**
 * A run executing in this process: every event it has emitted (a reconnect here replays them from
 * memory, with no query), whoever follows it live, and how to stop it.
 */
export interface LiveRun {
  id: string;
  spaceId: string;
  createdBy: string | null;
  events: StoredEvent[];
  listeners: Set<(event: StoredEvent) => void>;
  controller: AbortController;
  /** Settles once the run is stored as finished, with its summary. */
  done: Promise<StoredSummary>;
}

/** The runs of this process by id, while they run. */
export function createLiveRuns() {
  const runs = new Map<string, LiveRun>();
  return {
    get: (id: string) => runs.get(id),
    add: (run: LiveRun) => void runs.set(run.id, run),
    remove: (id: string) => void runs.delete(id),
    publish(run: LiveRun, event: StoredEvent) {
      run.events.push(event);
      for (const listener of run.listeners) listener(event);
    },
    all: () => [...runs.values()],
  };
}
export type LiveRuns = ReturnType<typeof createLiveRuns>;
