import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
import { MAX_RESULT_CHARS, type SandboxOutcome } from './protocol.ts';
import { failureOf, lengthOf, liftLimits, limitRuntime, type RunLimits } from './quickjs-runner.ts';

/**
 * nunjucks on the host can be escaped (`{{ range.constructor("return process")() }}` reaches the
 * server's globals), so templates render inside QuickJS, with nunjucks' browser build loaded there.
 * Loading it costs ~30 ms, so each thread keeps one warm context with nunjucks loaded and then
 * every object reachable from its global, and the built-ins only instances lead to (iterator and
 * generator prototypes, the async function constructors), frozen: a template (which can reach
 * QuickJS's Function constructor and so run any JavaScript inside QuickJS) cannot leave anything
 * behind for the next template, since nothing it can reach can be changed. A render that ran out of time or memory
 * drops the warm context; the next render builds a new one.
 */
const NUNJUCKS_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('nunjucks/browser/nunjucks.min.js'),
  'utf8',
);

/** Defines the render function, then freezes everything reachable from the global object. */
const PREPARE = `
(() => {
  const nunjucks = globalThis.nunjucks;
  const parse = JSON.parse;
  const render = (template, vars) => {
    const environment = new nunjucks.Environment([], { autoescape: false, throwOnUndefined: false });
    const text = environment.renderString(template, parse(vars));
    return typeof text === 'string' ? text : String(text);
  };
  const seen = new Set();
  // Some built-ins hang off no global, only off the instances that use them: the iterators' and
  // generators' prototypes, the async function constructors. Reached from an instance each.
  const instanceOnly = [
    [][Symbol.iterator](),
    ''[Symbol.iterator](),
    new Map().entries(),
    new Set().values(),
    /a/g[Symbol.matchAll]('a'),
    (function* () {})(),
    (async function* () {})(),
    async function () {},
    async function* () {},
    async () => {},
    new Int8Array(0),
    [].values().map((item) => item),
    Iterator.from({ next: () => ({ done: true }) }),
  ].map((instance) => Object.getPrototypeOf(instance));
  const pending = [globalThis, render, ...instanceOnly];
  while (pending.length > 0) {
    const value = pending.pop();
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) continue;
    seen.add(value);
    for (const key of Reflect.ownKeys(value)) {
      const property = Reflect.getOwnPropertyDescriptor(value, key);
      if (!property) continue;
      if (!('value' in property)) {
        pending.push(property.get, property.set);
        continue;
      }
      pending.push(property.value);
      // Frozen, a prototype's property would stop instances from having their own of that name
      // (nunjucks assigns such names on its objects), so it becomes an accessor whose setter
      // gives the instance its own property and refuses only on the frozen object itself.
      if (!property.configurable || !property.writable) continue;
      const held = property.value;
      Reflect.defineProperty(value, key, {
        get: () => held,
        set(next) {
          if (this === value) throw new TypeError("the sandbox's shared objects are read-only");
          Reflect.defineProperty(this, key, { value: next, writable: true, enumerable: true, configurable: true });
        },
        enumerable: property.enumerable,
        configurable: false,
      });
    }
    pending.push(Object.getPrototypeOf(value));
    Object.freeze(value);
  }
  return render;
})()
`;

interface Warm {
  runtime: QuickJSRuntime;
  context: QuickJSContext;
  render: QuickJSHandle;
  /** What the loaded nunjucks occupies; a render's memory limit comes on top of it. */
  baseBytes: number;
}

let warm: Warm | null = null;

function prepare(module: QuickJSWASMModule): Warm {
  const runtime = module.newRuntime();
  runtime.setMaxStackSize(1024 * 1024);
  const context = runtime.newContext();
  context.unwrapResult(context.evalCode(NUNJUCKS_SOURCE, 'nunjucks.js')).dispose();
  const render = context.unwrapResult(context.evalCode(PREPARE, 'athena.js'));
  const baseBytes = Number(/malloc_size[^\d]*(\d+)/.exec(runtime.dumpMemoryUsage())?.[1] ?? 0);
  return { runtime, context, render, baseBytes };
}

function drop() {
  if (!warm) return;
  const { runtime, context, render } = warm;
  warm = null;
  render.dispose();
  context.dispose();
  runtime.dispose();
}

/** Renders a Jinja2 template with nunjucks inside QuickJS, under the run's time and memory limits. */
export function renderTemplate(
  module: QuickJSWASMModule,
  template: string,
  varsJson: string,
  limits: RunLimits,
): SandboxOutcome {
  warm ??= prepare(module);
  const { runtime, context, render, baseBytes } = warm;
  limitRuntime(runtime, limits, baseBytes);
  const handles = [context.newString(template), context.newString(varsJson)];
  let healthy = true;
  try {
    const result = context.callFunction(render, context.undefined, ...handles);
    if (result.error) {
      // No file name: nunjucks names the template's own line and column in its messages.
      const failure = failureOf(context, result.error, 'template');
      healthy = failure.kind === 'error';
      return { ok: false, ...failure };
    }
    const text = result.value;
    try {
      liftLimits(runtime);
      const length = lengthOf(context, text);
      if (length > MAX_RESULT_CHARS)
        return { ok: false, kind: 'output', detail: `the output is ${length} characters, over ${MAX_RESULT_CHARS}` };
      return { ok: true, json: JSON.stringify(context.getString(text)), elapsedMs: 0 };
    } finally {
      text.dispose();
    }
  } catch (error) {
    healthy = false;
    throw error;
  } finally {
    for (const handle of handles) handle.dispose();
    liftLimits(runtime);
    if (!healthy) drop();
  }
}
