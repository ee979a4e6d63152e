import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
import { MAX_RESULT_CHARS, type SandboxFailureKind, type SandboxOutcome } from './protocol.ts';

/**
 * QuickJS's own stack limit. Its interpreter recurses on the thread's native stack too (WebAssembly
 * frames), so the limit must trip before V8's: past it the WebAssembly module aborts and the thread
 * is lost. 256 KB allows ~1 400 plain JavaScript calls deep and stays far below a worker's 4 MB.
 */
export const QUICKJS_STACK_BYTES = 256 * 1024;

/** A failure of the host side (the module aborted, the native stack ran out): the thread is done for. */
export class BrokenSandbox extends Error {}

export interface RunLimits {
  timeoutMs: number;
  memoryMb: number;
  /** Non-zero once the front wants the run to stop (cancellation, the node's timeout). */
  interrupt: Int32Array;
}

/** Sets a runtime's memory, stack and CPU time limits for one run starting now. */
export function limitRuntime(runtime: QuickJSRuntime, limits: RunLimits, baseBytes = 0) {
  runtime.setMemoryLimit(baseBytes + limits.memoryMb * 1024 * 1024);
  runtime.setMaxStackSize(QUICKJS_STACK_BYTES);
  const deadline = performance.now() + limits.timeoutMs;
  runtime.setInterruptHandler(() => Atomics.load(limits.interrupt, 0) !== 0 || performance.now() > deadline);
}

/** Lifts the limits, so that reading an error after running out of memory or time can allocate. */
export function liftLimits(runtime: QuickJSRuntime) {
  runtime.removeInterruptHandler();
  runtime.setMemoryLimit(-1);
}

/** A QuickJS exception as a failure: its kind, and `Name: message (line N)` from the user's file. */
export function failureOf(
  context: QuickJSContext,
  error: QuickJSHandle,
  file: string,
): { kind: SandboxFailureKind; detail: string } {
  liftLimits(context.runtime);
  const dumped: unknown = context.dump(error);
  error.dispose();
  const { name, message, stack } =
    typeof dumped === 'object' && dumped !== null
      ? (dumped as { name?: unknown; message?: unknown; stack?: unknown })
      : { name: undefined, message: dumped, stack: undefined };
  const text = String(message ?? '');
  // nunjucks wraps an error from inside a template into its own, so the text is searched too.
  const both = `${String(name)}: ${text}`;
  if (both.includes('InternalError: interrupted')) return { kind: 'timeout', detail: 'interrupted' };
  if (both.includes('InternalError: out of memory')) return { kind: 'memory', detail: 'out of memory' };
  // QuickJS reports an exhausted heap without an error object (it could not make one).
  if (dumped === null && name === undefined) return { kind: 'memory', detail: 'out of memory' };
  const line = new RegExp(`${file.replace('.', '\\.')}:(\\d+)`).exec(String(stack ?? ''))?.[1];
  const label = typeof name === 'string' && name ? `${name}: ${text}` : text;
  return { kind: 'error', detail: (line ? `${label} (line ${line})` : label).slice(0, 2_000) };
}

/** A QuickJS string's length, read without copying the string out. */
export function lengthOf(context: QuickJSContext, text: QuickJSHandle): number {
  const length = context.getProp(text, 'length');
  try {
    return context.getNumber(length);
  } finally {
    length.dispose();
  }
}

/**
 * Copies a value out as JSON text, refusing what is not JSON or is too large before it leaves
 * QuickJS. `stringify` is the context's JSON.stringify, taken before user code ran.
 */
export function jsonOut(context: QuickJSContext, value: QuickJSHandle, stringify: QuickJSHandle): SandboxOutcome {
  const result = context.callFunction(stringify, context.undefined, value);
  if (result.error) return { ok: false, ...failureOf(context, result.error, 'main.js') };
  const text = result.value;
  try {
    const type = context.typeof(text);
    if (type !== 'string') return { ok: false, kind: 'output', detail: 'main must return a JSON object' };
    const length = lengthOf(context, text);
    if (length > MAX_RESULT_CHARS)
      return {
        ok: false,
        kind: 'output',
        detail: `the result is ${length} characters of JSON, over ${MAX_RESULT_CHARS}`,
      };
    return { ok: true, json: context.getString(text), elapsedMs: 0 };
  } finally {
    text.dispose();
  }
}

/**
 * Settles a promise by running the runtime's pending jobs (the interrupt handler still bounds them),
 * or returns a value that is not one as it is.
 */
export function settle(
  context: QuickJSContext,
  value: QuickJSHandle,
): { value: QuickJSHandle } | { error: QuickJSHandle } {
  for (;;) {
    const state = context.getPromiseState(value);
    if (state.type === 'fulfilled') {
      if (state.notAPromise) return { value };
      value.dispose();
      return { value: state.value };
    }
    if (state.type === 'rejected') {
      value.dispose();
      return { error: state.error };
    }
    if (!context.runtime.hasPendingJob()) {
      value.dispose();
      return { error: context.newError({ name: 'Error', message: "main's promise never settles" }) };
    }
    const jobs = context.runtime.executePendingJobs();
    if (jobs.error) {
      value.dispose();
      return { error: jobs.error };
    }
  }
}

/** Runs `main(args)` of a JavaScript code node in a fresh runtime and context of its own. */
export function runJavaScript(
  module: QuickJSWASMModule,
  code: string,
  argsJson: string,
  limits: RunLimits,
): SandboxOutcome {
  const runtime = module.newRuntime();
  limitRuntime(runtime, limits);
  const context = runtime.newContext();
  const handles: QuickJSHandle[] = [];
  const keep = (handle: QuickJSHandle) => {
    handles.push(handle);
    return handle;
  };
  try {
    // Taken before user code runs, so main cannot swap the JSON that carries its own result.
    const helpers = context.unwrapResult(context.evalCode('[JSON.parse, JSON.stringify]', 'athena.js'));
    keep(helpers);
    const parse = keep(context.getProp(helpers, 0));
    const stringify = keep(context.getProp(helpers, 1));
    const loaded = context.evalCode(code, 'main.js');
    if (loaded.error) return { ok: false, ...failureOf(context, loaded.error, 'main.js') };
    loaded.value.dispose();
    const main = context.evalCode('typeof main === "function" ? main : undefined', 'athena.js');
    if (main.error) return { ok: false, ...failureOf(context, main.error, 'main.js') };
    keep(main.value);
    if (context.typeof(main.value) !== 'function')
      return { ok: false, kind: 'error', detail: 'The code must define a function main(args)' };
    const args = context.callFunction(parse, context.undefined, keep(context.newString(argsJson)));
    if (args.error) return { ok: false, ...failureOf(context, args.error, 'main.js') };
    const called = context.callFunction(main.value, context.undefined, keep(args.value));
    if (called.error) return { ok: false, ...failureOf(context, called.error, 'main.js') };
    const settled = settle(context, called.value);
    if ('error' in settled) return { ok: false, ...failureOf(context, settled.error, 'main.js') };
    return jsonOut(context, keep(settled.value), stringify);
  } finally {
    for (const handle of handles) handle.dispose();
    context.dispose();
    runtime.dispose();
  }
}
