import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { FromFileWorker, ToFileWorker } from './protocol.ts';

export interface FileTask {
  /** Sends one item to the pool at once (a page, a batch of segments), so the caller can start on it. */
  emit(item: unknown): void;
  /** The pool asked the task to end early (its caller left); checked between steps. */
  readonly stopped: boolean;
}

/** Below the server's thread, which then gets a core first whenever both want one. */
const NICENESS = 10;

/**
 * On a machine with fewer cores than busy threads, a thread parsing a file would share the CPU
 * evenly with the server's thread, and requests would wait their turn. Linux keeps the nice value
 * per thread, so this one lowers only itself (found through /proc/thread-self); elsewhere the
 * thread keeps its priority.
 */
function yieldToTheServer() {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), NICENESS);
  } catch {
    // not Linux, or not allowed: the heap and time limits still hold
  }
}

/**
 * The thread's side of a file-worker pool (file-worker-pool.ts), for a worker entry file: runs
 * `handle` for each task, one at a time, and reports how it ended. `refusalOf` recognises the
 * consumer's "this file cannot be used" errors, which reach the caller with their code; any other
 * error is a fault of the thread.
 */
export function serveFileTasks<Request>(
  handle: (request: Request, task: FileTask) => Promise<unknown>,
  refusalOf: (error: unknown) => { code: string; detail: string } | null,
) {
  const port = parentPort;
  if (!port) throw new Error('serveFileTasks runs in a worker thread');
  const post = (message: FromFileWorker) => port.postMessage(message);
  yieldToTheServer();
  let stopped = false;
  const task: FileTask = {
    emit: (item) => post({ type: 'item', item }),
    get stopped() {
      return stopped;
    },
  };

  async function run(request: Request) {
    try {
      post({ type: 'end', result: await handle(request, task) });
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal) post({ type: 'refused', ...refusal });
      else post({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    }
  }

  port.on('message', (message: ToFileWorker) => {
    if (message.type === 'stop') stopped = true;
    else {
      stopped = false;
      void run(message.request as Request);
    }
  });
  post({ type: 'ready' });
}
