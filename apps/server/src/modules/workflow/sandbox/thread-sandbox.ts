import { createFileWorkerPool, FileWorkerLimit } from '../../../platform/file-workers/file-worker-pool.ts';
import {
  RETIRE_MARK,
  type RunRequest,
  type SandboxOptions,
  type SandboxOutcome,
  type SandboxRequest,
} from './protocol.ts';

/**
 * The sandbox process's side (sandbox-host.ts): each run in a worker thread of that process, never
 * on its main thread, which relays requests and interrupts. JavaScript and Jinja2 templates in
 * QuickJS (WebAssembly), Python in Pyodide (WebAssembly). docs/workflow-sandbox.md describes the
 * isolation and its bounds. This file only ever runs bundled (sandbox-bundle.ts), beside its
 * threads' bundles.
 */
const QUICKJS_ENTRY = new URL('./workflow-quickjs.worker.mjs', import.meta.url);
const PYTHON_ENTRY = new URL('./workflow-python.worker.mjs', import.meta.url);

/** After the interrupt, how long a thread may take to answer before it is ended. */
const GRACE_MS = 1_000;

const CANCELLED: SandboxOutcome = { ok: false, kind: 'cancelled', detail: 'the run was cancelled' };

export function createThreadSandbox(options: SandboxOptions) {
  const common = { heapMb: 256, timeoutMs: options.timeoutMs + 2 * GRACE_MS, stopWaitMs: 200 };
  const quickjs = createFileWorkerPool({ ...common, entry: QUICKJS_ENTRY, maxWorkers: options.workers });
  // Loading Pyodide costs ~2 s of CPU, so a Python thread waits longer for its next run.
  const python = createFileWorkerPool({
    ...common,
    entry: PYTHON_ENTRY,
    maxWorkers: options.pythonWorkers,
    idleMs: 10 * 60_000,
    startTimeoutMs: 120_000,
  });

  /**
   * One run; resolves to its outcome, never throws for what the user's code did. Python runs of a
   * space only use threads that ran nothing but that space's code: the harness restores module
   * namespaces between runs, but not in-place changes inside module objects (a class attribute, a
   * list a module holds), and those must never reach another team. JavaScript needs no such care,
   * each run having a new QuickJS runtime.
   */
  async function run(request: RunRequest, signal: AbortSignal): Promise<SandboxOutcome> {
    if (signal.aborted) return CANCELLED;
    const isPython = request.kind === 'python3';
    const pool = isPython ? python : quickjs;
    const memoryMb = isPython ? options.pythonMemoryMb : options.memoryMb;
    const { space, ...task } = request;
    const interrupt = new Int32Array(new SharedArrayBuffer(4));
    // The thread stops at the flag (QuickJS's interrupt handler, Python's interrupt buffer); one
    // that does not answer within the grace (Python inside a long C call) is ended by the pool.
    const abandon = new AbortController();
    let graceTimer: NodeJS.Timeout | undefined;
    const stop = () => {
      if (Atomics.exchange(interrupt, 0, 2) !== 0) return;
      graceTimer = setTimeout(() => abandon.abort(), GRACE_MS);
    };
    // The time limit starts when the thread starts the run (the thread says so), not while the
    // run waits for a thread or a new thread loads its interpreter.
    let deadline: NodeJS.Timeout | undefined;
    signal.addEventListener('abort', stop, { once: true });
    let outcome: SandboxOutcome;
    try {
      const steps = pool.stream<'started', SandboxOutcome>(
        { ...task, interrupt: interrupt.buffer, timeoutMs: options.timeoutMs, memoryMb } as SandboxRequest,
        { signal: abandon.signal, key: isPython ? space : undefined },
      );
      for (;;) {
        const step = await steps.next();
        if (step.done) {
          outcome = step.value;
          break;
        }
        deadline ??= setTimeout(stop, options.timeoutMs);
      }
    } catch (error) {
      outcome = outcomeOfThreadFailure(error, abandon.signal.aborted);
    } finally {
      clearTimeout(deadline);
      clearTimeout(graceTimer);
      signal.removeEventListener('abort', stop);
    }
    return signal.aborted ? CANCELLED : outcome;
  }

  return {
    run,

    /** Threads alive now, busy or idle. */
    get threads() {
      return { quickjs: quickjs.size, python: python.size };
    },

    async close() {
      await Promise.all([quickjs.close(), python.close()]);
    },
  };
}

/** The pool's error for a thread that was ended or retired, as the run's outcome. */
function outcomeOfThreadFailure(error: unknown, abandoned: boolean): SandboxOutcome {
  if (abandoned) return { ok: false, kind: 'timeout', detail: 'the run did not stop when interrupted' };
  if (error instanceof FileWorkerLimit)
    return { ok: false, kind: error.limit === 'memory' ? 'memory' : 'timeout', detail: error.message };
  const message = error instanceof Error ? error.message : String(error);
  const at = message.indexOf(RETIRE_MARK);
  if (at >= 0) return JSON.parse(message.slice(at + RETIRE_MARK.length)) as SandboxOutcome;
  return { ok: false, kind: 'error', detail: `the sandbox failed: ${message.slice(0, 500)}` };
}
