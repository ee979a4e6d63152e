import type { ChildProcess } from 'node:child_process';
import { FairQueue } from './fair-queue.ts';
import type {
  FromSandboxProcess,
  RunRequest,
  SandboxFailureKind,
  SandboxOptions,
  SandboxOutcome,
  ToSandboxProcess,
} from './protocol.ts';
import { sandboxHostEntry } from './sandbox-bundle.ts';
import { type LaunchPlan, launchPlans, startSandboxProcess } from './sandbox-process.ts';

export type { SandboxOptions } from './protocol.ts';

/**
 * Code and template nodes run code that strangers wrote. It runs in a process of its own
 * (sandbox-host.ts, started as sandbox-process.ts says: no environment, no files, no programs, no
 * network), in worker threads there, never in the server's process: JavaScript and Jinja2
 * templates in QuickJS, Python in Pyodide, both WebAssembly. This front queues runs fairly between
 * spaces (fair-queue.ts), starts the process on first use, and ends it when it has been idle.
 * docs/workflow-sandbox.md describes the isolation and its bounds.
 */

/** Runs of one space that may wait for a thread, and of all spaces; more are refused at once. */
export const MAX_WAITING_PER_SPACE = 50;
const MAX_WAITING = 500;
/** Beyond the run's own limits (thread start, interrupt grace), when the process is taken as hung. */
const PROCESS_GRACE_MS = 150_000;

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
  /** The space whose workflow runs the code: runs queue per space, and Python threads serve one. */
  space?: string;
}

export interface SandboxDeps {
  /** Told when the process could not start with the full floor, or ended unexpectedly. */
  warn?: (message: string) => void;
}

interface Host {
  child: ChildProcess;
  ready: Promise<void>;
  pending: Map<number, (outcome: SandboxOutcome) => void>;
}

export function createSandbox(options: SandboxOptions, deps: SandboxDeps = {}) {
  const warn = deps.warn ?? ((message: string) => process.emitWarning(message, 'SandboxWarning'));
  const queues = {
    quickjs: new FairQueue(options.workers, MAX_WAITING_PER_SPACE, MAX_WAITING),
    python: new FairQueue(options.pythonWorkers, MAX_WAITING_PER_SPACE, MAX_WAITING),
  };
  let host: Host | null = null;
  let starting: Promise<Host> | null = null;
  let threads = { quickjs: 0, python: 0 };
  let nextId = 1;
  let closed = false;
  /** The plans left to try; a plan whose process does not come up is dropped for good. */
  let plans: LaunchPlan[] | null = null;

  async function startHost(): Promise<Host> {
    const entry = await sandboxHostEntry();
    plans ??= launchPlans(entry, JSON.stringify(options));
    for (;;) {
      const plan = plans[0];
      if (!plan) throw new SandboxFailure('error', 'the sandbox process could not be started');
      const started = launch(plan);
      try {
        await started.ready;
        if (plan.missing.length > 0)
          warn(`code sandbox started without ${plan.missing.join(' and ')} (docs/workflow-sandbox.md)`);
        return started;
      } catch (error) {
        warn(`code sandbox could not start as "${plan.name}": ${(error as Error).message}`);
        plans.shift();
      }
    }
  }

  function launch(plan: LaunchPlan): Host {
    const child = startSandboxProcess(plan);
    const pending = new Map<number, (outcome: SandboxOutcome) => void>();
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-2_000);
    });
    const self: Host = {
      child,
      pending,
      ready: new Promise<void>((resolve, reject) => {
        child.on('message', (message: FromSandboxProcess) => {
          if (message.type === 'ready') resolve();
          else if (message.type === 'done') {
            threads = message.threads;
            pending.get(message.id)?.(message.outcome);
            pending.delete(message.id);
            if (pending.size === 0) idleRefs(child);
          } else if (message.type === 'idle' && pending.size === 0 && host === self) {
            host = null;
            threads = { quickjs: 0, python: 0 };
            child.kill();
          }
        });
        child.on('error', reject);
        child.on('exit', (code, signal) => {
          const why = `the sandbox process ended (${signal ?? `code ${code}`})${stderr ? `: ${stderr.trim().slice(-500)}` : ''}`;
          reject(new Error(why));
          if (host === self) {
            host = null;
            threads = { quickjs: 0, python: 0 };
          }
          if (pending.size > 0 && !closed) warn(why);
          for (const settle of pending.values()) settle({ ok: false, kind: 'error', detail: why });
          pending.clear();
        });
      }),
    };
    return self;
  }

  /** An idle process never keeps the server alive. */
  function idleRefs(child: ChildProcess) {
    child.unref();
    child.channel?.unref();
  }

  /** The running process, or the one starting; runs that arrive while it starts share the start. */
  function currentHost(): Promise<Host> {
    if (host) return Promise.resolve(host);
    starting ??= startHost()
      .then((started) => {
        host = started;
        return started;
      })
      .finally(() => {
        starting = null;
      });
    return starting;
  }

  async function send(request: RunRequest, signal: AbortSignal | undefined): Promise<SandboxOutcome> {
    const running = await currentHost();
    const id = nextId++;
    const { child } = running;
    if (!child.connected) return { ok: false, kind: 'error', detail: 'the sandbox process ended' };
    child.ref();
    child.channel?.ref();
    const outcome = new Promise<SandboxOutcome>((resolve) => running.pending.set(id, resolve));
    const abort = () => child.connected && child.send({ type: 'abort', id } satisfies ToSandboxProcess);
    signal?.addEventListener('abort', abort, { once: true });
    // The process enforces every limit itself; this only catches a process that stopped answering.
    const hung = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs + PROCESS_GRACE_MS);
    child.send({ type: 'run', id, request } satisfies ToSandboxProcess);
    try {
      return await outcome;
    } finally {
      clearTimeout(hung);
      signal?.removeEventListener('abort', abort);
    }
  }

  async function run(request: RunRequest, signal: AbortSignal | undefined): Promise<unknown> {
    signal?.throwIfAborted();
    if (closed) throw new Error('the sandbox is closed');
    const queue = request.kind === 'python3' ? queues.python : queues.quickjs;
    const turn = queue.acquire(request.space, signal);
    if (!turn)
      throw new SandboxFailure('busy', `more than ${MAX_WAITING_PER_SPACE} code runs of this space are waiting`);
    await turn;
    let outcome: SandboxOutcome;
    try {
      outcome = await send(request, signal);
    } finally {
      queue.release();
    }
    signal?.throwIfAborted();
    if (!outcome.ok) throw new SandboxFailure(outcome.kind, outcome.detail);
    return outcome;
  }

  return {
    options,

    /** Runs `main` of a code node with its variables; resolves to what main returned. */
    async runCode(
      language: 'javascript' | 'python3',
      code: string,
      args: Record<string, unknown>,
      { signal, space = '' }: CodeRunOptions = {},
    ): Promise<{ value: unknown; elapsedMs: number }> {
      const request = { kind: language, code, argsJson: JSON.stringify(args), space };
      const outcome = (await run(request, signal)) as Extract<SandboxOutcome, { ok: true }>;
      return { value: JSON.parse(outcome.json), elapsedMs: outcome.elapsedMs };
    },

    /** Renders a Jinja2 template with its variables. */
    async renderTemplate(
      template: string,
      vars: Record<string, unknown>,
      { signal, space = '' }: CodeRunOptions = {},
    ): Promise<{ text: string; elapsedMs: number }> {
      const request = { kind: 'template' as const, template, varsJson: JSON.stringify(vars), space };
      const outcome = (await run(request, signal)) as Extract<SandboxOutcome, { ok: true }>;
      return { text: String(JSON.parse(outcome.json)), elapsedMs: outcome.elapsedMs };
    },

    /** Threads alive in the sandbox process after its last run (tests and benchmarks). */
    get threads() {
      return threads;
    },

    /** The sandbox process's id while it runs (tests). */
    get pid() {
      return host?.child.pid;
    },

    async close() {
      closed = true;
      const ending = host ?? (await starting?.catch(() => null)) ?? null;
      host = null;
      if (!ending || ending.child.exitCode !== null) return;
      const exited = new Promise((resolve) => ending.child.once('exit', resolve));
      // An idle process is unreferenced; waiting for its end must still keep this process alive.
      ending.child.ref();
      ending.child.kill();
      await exited;
    },
  };
}
