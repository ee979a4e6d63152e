/**
 * The messages between a file-worker pool and its threads. The pool sends a task (its request is
 * the consumer's own shape) and may ask it to stop; the thread answers with any number of items,
 * then exactly one end, refusal or error.
 */
export type ToFileWorker = { type: 'task'; request: unknown } | { type: 'stop' };

export type FromFileWorker =
  /** The thread has loaded its code and waits for a task; the time limit starts after this. */
  | { type: 'ready' }
  | { type: 'item'; item: unknown }
  | { type: 'end'; result: unknown }
  /** The file cannot be used; `code` is the consumer's (e.g. an error catalogue key). */
  | { type: 'refused'; code: string; detail: string }
  /** Anything else went wrong in the thread (a bug, not the file). */
  | { type: 'error'; message: string };
