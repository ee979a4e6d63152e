// What the sandbox front (sandbox.ts, in the server), the sandbox process (sandbox-host.ts) and its
// threads (quickjs.worker.ts, python.worker.ts) say to each other: the front and the process over
// the process's IPC channel, the process and its threads through the file-worker pool's messages.

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

/** One run as the front asks the sandbox process for it: only JSON text crosses. */
export type RunRequest = { space: string } & (
  | { kind: 'javascript' | 'python3'; code: string; argsJson: string }
  | { kind: 'template'; template: string; varsJson: string }
);

export type ToSandboxProcess =
  | { type: 'run'; id: number; request: RunRequest }
  /** The caller left (cancellation, the node's own timeout): interrupt the run. */
  | { type: 'abort'; id: number };

export type FromSandboxProcess =
  /** The process has locked itself down and listens. */
  | { type: 'ready' }
  /** No run and no thread for a while: the server may end the process. */
  | { type: 'idle' }
  /** A run's end, with the threads alive after it (the pool may have ended the one it used). */
  | { type: 'done'; id: number; outcome: SandboxOutcome; threads: { quickjs: number; python: number } };

/** A JavaScript or Python code node's run: `main(args)` with the node's variables. */
export interface CodeRequest {
  kind: 'javascript' | 'python3';
  code: string;
  /** The node's variables, as JSON text: only JSON crosses into the sandbox. */
  argsJson: string;
  timeoutMs: number;
  memoryMb: number;
  /** An Int32Array's buffer; the front stores a non-zero value to interrupt the run. */
  interrupt: SharedArrayBuffer;
}

/** A template node's render (Jinja2 through nunjucks, inside QuickJS). */
export interface TemplateRequest {
  kind: 'template';
  template: string;
  varsJson: string;
  timeoutMs: number;
  memoryMb: number;
  interrupt: SharedArrayBuffer;
}

export type SandboxRequest = CodeRequest | TemplateRequest;

/**
 * Why a run ended without a result. `error`: the user's code or template threw (detail says why);
 * `cancelled`: the caller left; `busy`: too many runs of the space waited already.
 */
export type SandboxFailureKind = 'timeout' | 'memory' | 'error' | 'output' | 'cancelled' | 'busy';

export type SandboxOutcome =
  | { ok: true; json: string; elapsedMs: number }
  | { ok: false; kind: SandboxFailureKind; detail: string };

/**
 * A thread that must not serve another run (its interpreter was interrupted, ran out of memory or
 * broke) reports its outcome as a failure of the thread, so the pool ends it; the outcome follows
 * this mark in the message.
 */
export const RETIRE_MARK = 'sandbox-retire:';

/** A result (JSON text) larger than this is refused rather than copied out of the sandbox. */
export const MAX_RESULT_CHARS = 4_000_000;
