// Helpers that let the engine stop waiting the moment a signal fires, whatever the awaited work
// does: an executor that ignores its signal must not hold a cancelled or timed-out run open.
//
// A wide fan-out or a parallel iteration has hundreds of executions hanging off one signal; rather
// than one DOM listener each (Node warns past ten per signal), each signal gets one listener that
// calls the callbacks registered here.

const callbacks = new WeakMap<AbortSignal, Set<() => void>>();

/** Calls `callback` once when `signal` fires (at once if it has); returns how to unregister it. */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  if (signal.aborted) {
    callback();
    return () => {};
  }
  let registered = callbacks.get(signal);
  if (!registered) {
    const set = new Set<() => void>();
    registered = set;
    callbacks.set(signal, set);
    signal.addEventListener(
      'abort',
      () => {
        const pending = [...set];
        set.clear();
        for (const call of pending) call();
      },
      { once: true },
    );
  }
  const set = registered;
  set.add(callback);
  return () => set.delete(callback);
}

/** Settles like `promise`, or rejects with the signal's reason as soon as it fires. */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const off = onAbort(signal, () => reject(signal.reason));
    promise.then(
      (value) => {
        off();
        resolve(value);
      },
      (error: unknown) => {
        off();
        reject(error);
      },
    );
  });
}

/** A controller aborted when `parent` is; `dispose` unhooks it once the work is over. */
export function linkedController(parent: AbortSignal): { controller: AbortController; dispose: () => void } {
  const controller = new AbortController();
  const dispose = onAbort(parent, () => controller.abort(parent.reason));
  return { controller, dispose };
}

/** Waits, or rejects with the signal's reason when it fires first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return signal.aborted ? Promise.reject(signal.reason) : Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const wait = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return raceSignal(wait, signal).finally(() => clearTimeout(timer));
}
