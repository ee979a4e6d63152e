/**
 * `work`, run one call at a time. A call made while a run is under way gets the next run, which
 * starts when that one ends; calls made while the next run is still waiting share it (it starts
 * after all of them, so it sees whatever they were made for). For reads of something that keeps
 * changing: two overlapping reads may answer in either order, and the older answer, landing last,
 * would be what stays shown.
 */
export function oneAtATime<T>(work: () => Promise<T>): () => Promise<T> {
  let running: Promise<unknown> = Promise.resolve();
  let next: Promise<T> | null = null;
  return () => {
    if (next) return next;
    const run = () => {
      next = null;
      return work();
    };
    const mine = running.then(run, run);
    next = mine;
    running = mine;
    return mine;
  };
}
