import { Worker } from 'node:worker_threads';
import type { FromFileWorker, ToFileWorker } from './protocol.ts';

/**
 * Reading a file someone uploaded (a PDF, a Word document, a spreadsheet, later media and workflow
 * files) is work whose cost the file decides: a few KB can inflate to gigabytes or keep a parser
 * busy for minutes. So it runs in worker threads with a heap limit and a time limit: a hostile
 * file ends its thread, not the server, and the server's own thread stays free for requests.
 * A thread reads one file at a time; one that answered is kept for the next file a while (a
 * thread costs ~0.3 s to start and its JIT warms up), unref'd, so an idle server holds none.
 */
export interface FileWorkerPoolOptions {
  /** The thread's entry: a .ts file (run through tsx: tests, benchmarks) or a bundled .mjs. */
  entry: URL;
  /** Threads at once; further files wait for one. */
  maxWorkers: number;
  /** Each thread's old-generation heap, in MB. */
  heapMb: number;
  /** How long one file may take in its thread before the thread is ended. */
  timeoutMs: number;
  /** How long a thread waits for its next file before it ends (30 s). */
  idleMs?: number;
  /** How long a thread asked to stop midway may take to answer before it is ended (2 s). */
  stopWaitMs?: number;
  /** How long a new thread may take to load its code (60 s: from source, tsx compiles it first). */
  startTimeoutMs?: number;
}

/** The thread refused the file; `code` and `detail` are the consumer's. */
export class FileRefusal extends Error {
  constructor(
    readonly code: string,
    readonly detail: string,
  ) {
    super(`${code}: ${detail}`);
    this.name = 'FileRefusal';
  }
}

/** The file needed more memory or time than its thread may use; the thread was ended. */
export class FileWorkerLimit extends Error {
  constructor(readonly limit: 'memory' | 'time') {
    super(limit === 'memory' ? 'the file needs too much memory to read' : 'the file takes too long to read');
    this.name = 'FileWorkerLimit';
  }
}

interface Thread {
  worker: Worker;
  /** The key of the tasks this thread serves (RunOptions.key); a thread never serves another key. */
  key: string | undefined;
  /** While idle: ends the thread once it has waited idleMs, and forgets it if it ends otherwise. */
  idle: { timer: NodeJS.Timeout; onExit: () => void } | null;
}

type Outcome<Result> = { result: Result } | { error: Error };

export interface RunOptions {
  signal?: AbortSignal;
  /** Buffers moved to the thread rather than copied (the caller must not use them afterwards). */
  transfer?: ArrayBuffer[];
  /**
   * Tasks of one key only ever share threads with each other: a thread that ran a task for one
   * key never runs another key's (state a task leaves in its thread stays with its key). With
   * every thread taken, the least recently used idle thread of another key is ended for a new one.
   */
  key?: string;
}

export type FileWorkerPool = ReturnType<typeof createFileWorkerPool>;

export function createFileWorkerPool(options: FileWorkerPoolOptions) {
  const { entry, maxWorkers, heapMb, timeoutMs } = options;
  const idleMs = options.idleMs ?? 30_000;
  const stopWaitMs = options.stopWaitMs ?? 2_000;
  const startTimeoutMs = options.startTimeoutMs ?? 60_000;
  const fromSource = entry.pathname.endsWith('.ts');
  const threads = new Set<Thread>();
  const idle: Thread[] = [];
  const waiting: (() => void)[] = [];
  let closed = false;

  /** From source, the thread first registers tsx's loader (a worker's `--import` flag is not honoured). */
  function spawn(): Worker {
    const workerOptions = { resourceLimits: { maxOldGenerationSizeMb: heapMb } };
    if (!fromSource) return new Worker(entry, workerOptions);
    const tsx = import.meta.resolve('tsx/esm/api');
    const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry.href)}); })`;
    return new Worker(boot, { ...workerOptions, eval: true });
  }

  function start(key: string | undefined): Promise<Thread> {
    const worker = spawn();
    // A thread's failure is reported to whoever holds it; between files nobody listens, and an
    // unheard 'error' event would end the whole process.
    worker.on('error', () => {});
    const thread: Thread = { worker, key, idle: null };
    threads.add(thread);
    return new Promise((resolve, reject) => {
      const done = (error?: Error) => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', done).off('exit', onExit);
        if (!error) return resolve(thread);
        discard(thread);
        reject(error);
      };
      const onMessage = (message: FromFileWorker) => message.type === 'ready' && done();
      const onExit = (code: number) => done(new Error(`file worker exited with code ${code} while starting`));
      const timer = setTimeout(() => done(new Error('file worker did not start in time')), startTimeoutMs);
      worker.on('message', onMessage).on('error', done).on('exit', onExit);
    });
  }

  function wakeNext() {
    waiting.shift()?.();
  }

  function discard(thread: Thread) {
    if (!threads.delete(thread)) return;
    void thread.worker.terminate();
    wakeNext();
  }

  function leaveIdle(thread: Thread) {
    const index = idle.indexOf(thread);
    if (index >= 0) idle.splice(index, 1);
    if (!thread.idle) return;
    clearTimeout(thread.idle.timer);
    thread.worker.off('exit', thread.idle.onExit);
    thread.idle = null;
  }

  function putBack(thread: Thread) {
    if (closed) return discard(thread);
    thread.worker.unref(); // an idle thread never keeps the process alive
    const end = () => {
      leaveIdle(thread);
      discard(thread);
    };
    thread.idle = { timer: setTimeout(end, idleMs).unref(), onExit: end };
    thread.worker.once('exit', end);
    idle.push(thread);
    wakeNext();
  }

  function takeIdle(key: string | undefined): Thread | null {
    const thread = idle.findLast((candidate) => candidate.key === key);
    if (!thread) return null;
    leaveIdle(thread);
    thread.worker.ref();
    return thread;
  }

  async function acquire(signal: AbortSignal | undefined, key: string | undefined): Promise<Thread> {
    let woken = false;
    for (;;) {
      if (signal?.aborted) {
        // Woken for a thread it no longer wants: the next waiter gets the turn, or it would sit
        // until the idle thread's timer ends it.
        if (woken) wakeNext();
        signal.throwIfAborted();
      }
      if (closed) throw new Error('the file worker pool is closed');
      const thread = takeIdle(key);
      if (thread) return thread;
      if (threads.size < maxWorkers) return start(key);
      // Every thread is taken; idle ones serve other keys, and the longest idle makes room.
      const stale = idle[0];
      if (stale) {
        leaveIdle(stale);
        threads.delete(stale);
        void stale.worker.terminate();
        return start(key);
      }
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          const index = waiting.indexOf(go);
          if (index >= 0) waiting.splice(index, 1);
          reject(signal?.reason);
        };
        const go = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        waiting.push(go);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
      woken = true;
    }
  }

  /**
   * Runs one task in a thread and yields the items it sends, each step every item that has
   * arrived since the last (at least one), so a slow consumer takes larger bites; returns the
   * task's result. The thread is handed back as soon as it has answered, even while the caller is
   * still working through what it sent. Leaving early, or an abort, asks the thread to stop.
   * Throws FileRefusal (the thread's verdict on the file), FileWorkerLimit (its memory or time
   * ran out: the thread is ended and a new one serves the next file) or an Error.
   */
  async function* stream<Item, Result = unknown>(
    request: unknown,
    runOptions: RunOptions = {},
  ): AsyncGenerator<Item[], Result> {
    const { signal } = runOptions;
    const thread = await acquire(signal, runOptions.key);
    const { worker } = thread;
    const arrived: Item[] = [];
    // Typed by assertion: assignments happen in the listeners, which narrowing cannot see.
    let outcome = null as Outcome<Result> | null;
    let wake = () => {};
    const finish = (result: Outcome<Result>, healthy: boolean) => {
      if (outcome !== null) return;
      outcome = result;
      clearTimeout(limit);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      // A thread that answered is kept; one that failed, broke a limit or exited is not reused.
      if (healthy) putBack(thread);
      else discard(thread);
      wake();
    };
    const onMessage = (message: FromFileWorker) => {
      if (message.type === 'item') arrived.push(message.item as Item);
      else if (message.type === 'end') finish({ result: message.result as Result }, true);
      else if (message.type === 'refused') finish({ error: new FileRefusal(message.code, message.detail) }, true);
      else if (message.type === 'error') finish({ error: new Error(`file worker: ${message.message}`) }, false);
      wake();
    };
    const onError = (error: Error & { code?: string }) =>
      finish({ error: error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new FileWorkerLimit('memory') : error }, false);
    const onExit = (code: number) => finish({ error: new Error(`file worker exited with code ${code}`) }, false);
    const onAbort = () => wake();
    const limit = setTimeout(() => finish({ error: new FileWorkerLimit('time') }, false), timeoutMs);
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.postMessage({ type: 'task', request } satisfies ToFileWorker, runOptions.transfer ?? []);
    try {
      for (;;) {
        signal?.throwIfAborted();
        if (arrived.length === 0 && outcome === null) await new Promise<void>((resolve) => (wake = resolve));
        signal?.throwIfAborted();
        // Items sent before the thread finished are delivered before its end (or its error).
        if (arrived.length > 0) {
          yield arrived.splice(0);
          continue;
        }
        if (outcome && 'error' in outcome) throw outcome.error;
        return (outcome as { result: Result }).result;
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (outcome === null) {
        // Left midway: ask the thread to stop and wait for its answer, so it can read the next file.
        worker.postMessage({ type: 'stop' } satisfies ToFileWorker);
        const gaveUp = setTimeout(() => finish({ error: new Error('file worker did not stop') }, false), stopWaitMs);
        while (outcome === null) await new Promise<void>((resolve) => (wake = resolve));
        clearTimeout(gaveUp);
      }
    }
  }

  return {
    stream,

    /** A task whose thread sends no items, only its result. */
    async run<Result>(request: unknown, runOptions: RunOptions = {}): Promise<Result> {
      const steps = stream<never, Result>(request, runOptions);
      for (;;) {
        const step = await steps.next();
        if (step.done) return step.value;
      }
    },

    /** Threads alive now, busy or idle (tests and benchmarks). */
    get size() {
      return threads.size;
    },

    /** Ends every thread; tasks in flight fail. Further tasks are refused. */
    async close() {
      closed = true;
      const all = [...threads];
      threads.clear();
      idle.length = 0;
      await Promise.all(all.map((thread) => thread.worker.terminate()));
      for (const go of waiting.splice(0)) go();
    },
  };
}
