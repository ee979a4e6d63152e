// What the sandbox front (sandbox.ts) and its threads (quickjs.worker.ts, python.worker.ts) say to
// each other, through the file-worker pool's task messages.

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

/** Why a run ended without a result. `error`: the user's code or template threw (detail says why). */
export type SandboxFailureKind = 'timeout' | 'memory' | 'error' | 'output';

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
