import { createFileWorkerPool, FileWorkerLimit } from '../../../platform/file-workers/file-worker-pool.ts';
import { RETIRE_MARK, type SandboxFailureKind, type SandboxOutcome, type SandboxRequest } from './protocol.ts';

/**
 * Code and template nodes run user code in worker threads, never on the server's thread:
 * JavaScript and Jinja2 templates in QuickJS (WebAssembly), Python in Pyodide (WebAssembly).
 * docs/workflow-sandbox.md describes the isolation and its bounds.
 */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const entry = (name: string) => new URL(`./${name}${FROM_SOURCE ? '.ts' : '.mjs'}`, import.meta.url);
// Bundled beside the server as dist/workflow-*.worker.mjs (scripts/build-server.mjs).
const QUICKJS_ENTRY = FROM_SOURCE ? entry('quickjs.worker') : entry('workflow-quickjs.worker');
const PYTHON_ENTRY = FROM_SOURCE ? entry('python.worker') : entry('workflow-python.worker');

/** After the interrupt, how long a thread may take to answer before it is ended. */
const GRACE_MS = 1_000;

export interface SandboxOptions {
  /** QuickJS threads (JavaScript code and templates) at once. */
  workers: number;
  /**
   * Python threads at once, over all spaces; each holds a loaded interpreter (~40 MB of
   * WebAssembly memory) and serves one space only.
   */
  pythonWorkers: number;
  /** What one JavaScript run or template render may allocate inside QuickJS, in MB. */
  memoryMb: number;
  /** The WebAssembly memory a Python thread may grow to, interpreter included, in MB. */
  pythonMemoryMb: number;
  /** The longest one run may take; a node's own, shorter timeout ends it sooner. */
  timeoutMs: number;
}

/** A run that ended without a result: the user's code failed, or broke a limit. */
export class SandboxFailure extends Error {
  constructor(
    readonly kind: SandboxFailureKind,
    readonly detail: string,
  ) {
    super(`${kind}: ${detail}`);
    this.name = 'SandboxFailure';
  }
}

export type Sandbox = ReturnType<typeof createSandbox>;

export interface CodeRunOptions {
  signal?: AbortSignal;
  /** The space whose workflow runs the code; Python threads are never shared between spaces. */
  space?: string;
}

export function createSandbox(options: SandboxOptions) {
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

  async function run(
    pool: typeof quickjs,
    request: Omit<SandboxRequest, 'interrupt' | 'timeoutMs' | 'memoryMb'>,
    memoryMb: number,
    { signal, space }: CodeRunOptions = {},
  ): Promise<{ value: unknown; elapsedMs: number }> {
    signal?.throwIfAborted();
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
    signal?.addEventListener('abort', stop, { once: true });
    let outcome: SandboxOutcome;
    try {
      const steps = pool.stream<'started', SandboxOutcome>(
        { ...request, interrupt: interrupt.buffer, timeoutMs: options.timeoutMs, memoryMb } as SandboxRequest,
        { signal: abandon.signal, key: space },
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
      signal?.removeEventListener('abort', stop);
    }
    signal?.throwIfAborted();
    if (!outcome.ok) throw new SandboxFailure(outcome.kind, outcome.detail);
    return { value: JSON.parse(outcome.json), elapsedMs: outcome.elapsedMs };
  }

  return {
    options,

    /**
     * Runs `main` of a code node with its variables; resolves to what main returned. Python runs
     * of a space only use threads that ran nothing but that space's code: the harness restores
     * module namespaces between runs, but not in-place changes inside module objects (a class
     * attribute, a list a module holds), and those must never reach another team. JavaScript
     * needs no such care, each run having a new QuickJS runtime.
     */
    runCode(
      language: 'javascript' | 'python3',
      code: string,
      args: Record<string, unknown>,
      { signal, space }: CodeRunOptions = {},
    ) {
      const request = { kind: language, code, argsJson: JSON.stringify(args) } as const;
      return language === 'javascript'
        ? run(quickjs, request, options.memoryMb, { signal })
        : run(python, request, options.pythonMemoryMb, { signal, space });
    },

    /** Renders a Jinja2 template with its variables. */
    async renderTemplate(template: string, vars: Record<string, unknown>, signal?: AbortSignal) {
      const request = { kind: 'template', template, varsJson: JSON.stringify(vars) } as const;
      const { value, elapsedMs } = await run(quickjs, request, options.memoryMb, { signal });
      return { text: String(value), elapsedMs };
    },

    /** Threads alive now (tests and benchmarks). */
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
  const message = error instanceof Error ? error.message : '';
  const at = message.indexOf(RETIRE_MARK);
  if (at >= 0) return JSON.parse(message.slice(at + RETIRE_MARK.length)) as SandboxOutcome;
  throw error;
}
