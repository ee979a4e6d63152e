import { afterAll, describe, expect, it } from 'vitest';
import { slowestEchoWhile } from './echo-probe.ts';
import { createSandbox } from './sandbox.ts';
import { failure } from './sandbox-testing.ts';

// Escapes tried from JavaScript and Jinja2 templates (both in QuickJS threads): each must fail or
// find nothing, and the server's thread keeps answering while hostile code runs.
process.env.ATHENA_SANDBOX_TEST_SECRET = 'must-not-leak';
// Tests that are not about time get a generous limit, so that a loaded machine cannot turn a memory
// bomb or a stack overflow into a timeout; the runaway loops get a short one of their own.
const sandbox = createSandbox({ workers: 1, pythonWorkers: 1, memoryMb: 32, pythonMemoryMb: 256, timeoutMs: 15_000 });
const timed = createSandbox({ workers: 1, pythonWorkers: 1, memoryMb: 32, pythonMemoryMb: 256, timeoutMs: 1_000 });
afterAll(() => Promise.all([sandbox.close(), timed.close()]));

const js = (code: string, args: Record<string, unknown> = {}) => sandbox.runCode('javascript', code, args);

describe('JavaScript code', () => {
  it('runs main(args) with JSON in and out, async main included', async () => {
    expect((await js('function main({ a, b }) { return { sum: a + b, list: [a, b] } }', { a: 2, b: 3 })).value).toEqual(
      { sum: 5, list: [2, 3] },
    );
    const later = 'async function main({ a }) { const v = await Promise.resolve(a * 2); return { v } }';
    expect((await js(later, { a: 21 })).value).toEqual({ v: 42 });
  });

  it('reports the exception and its line', async () => {
    const error = await failure(js('function main() {\n  const x = null;\n  return x.y;\n}'));
    expect(error.kind).toBe('error');
    expect(error.detail).toMatch(/TypeError: .*\(line 3\)/);
    expect((await failure(js('const x = 1;'))).detail).toMatch(/function main/);
  });

  it('has no process, require, import(), fetch, XMLHttpRequest or host globals', async () => {
    const probe = `function main() {
      const global = Function('return this')();
      return {
        kinds: [typeof process, typeof require, typeof fetch, typeof XMLHttpRequest, typeof setTimeout],
        names: Object.getOwnPropertyNames(global),
        env: JSON.stringify(global).includes('must-not-leak'),
      };
    }`;
    const { value } = await js(probe);
    const result = value as { kinds: string[]; names: string[]; env: boolean };
    expect(result.kinds).toEqual(['undefined', 'undefined', 'undefined', 'undefined', 'undefined']);
    for (const name of ['process', 'require', 'module', 'Buffer', 'fetch', 'WebAssembly'])
      expect(result.names).not.toContain(name);
    expect(result.env).toBe(false);
    const imported = await failure(
      js("async function main() { const fs = await import('node:fs'); return { ok: !!fs } }"),
    );
    expect(imported.kind).toBe('error');
  });

  it('keeps prototype pollution inside its own run', async () => {
    await js('function main() { Object.prototype.polluted = "yes"; Array.prototype.map = null; return {} }');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await js('function main() { return { seen: ({}).polluted ?? null, map: typeof [].map } }')).value).toEqual({
      seen: null,
      map: 'function',
    });
  });

  it('gives every run a new context: globals, top-level bindings and patched built-ins do not carry over', async () => {
    const leave =
      'var carried = "A"; globalThis.leak = "A"; JSON.parse = () => "patched"; Math.max = () => -1; function main() { return {} }';
    await js(leave);
    const look =
      'function main() { return { carried: typeof carried, leak: typeof globalThis.leak, parse: JSON.parse("[1]"), max: Math.max(1, 2) } }';
    expect((await js(look)).value).toEqual({ carried: 'undefined', leak: 'undefined', parse: [1], max: 2 });
    expect(sandbox.threads.quickjs).toBe(1); // the same thread ran both
  });

  it('ends an infinite loop at the time limit while the server thread answers', async () => {
    // Started first: the echo measures the loop, not the sandbox process's start.
    await timed.runCode('javascript', 'function main() { return {} }', {});
    const run = failure(timed.runCode('javascript', 'function main() { while (true) {} }', {}));
    const { slowestMs, echoes } = await slowestEchoWhile(run);
    expect((await run).kind).toBe('timeout');
    // Had the loop held the server's thread, an echo would have waited about the whole time limit.
    expect(echoes).toBeGreaterThan(0);
    expect(slowestMs).toBeLessThan(timed.options.timeoutMs / 2);
  });

  it('ends a memory bomb, a deep recursion and a huge result, then runs the next code', async () => {
    const grow = 'function main() { const all = []; for (;;) all.push(new Array(100000).fill(all.length)) }';
    expect((await failure(js(grow))).kind).toBe('memory');
    const strings = 'function main() { let s = "x"; const all = []; for (;;) { s += s.length; all.push(s + "") } }';
    expect(['memory', 'error']).toContain((await failure(js(strings))).kind);
    const deep = await failure(js('function main() { return main() }'));
    expect(deep.detail).toMatch(/stack overflow/);
    const huge = await failure(js('function main() { return { text: "x".repeat(5000000) } }'));
    expect(huge.kind).toBe('output');
    expect((await js('function main() { return { fine: true } }')).value).toEqual({ fine: true });
  });
});

describe('Jinja2 templates', () => {
  it('renders Jinja2 syntax', async () => {
    const { text } = await sandbox.renderTemplate(
      '{% for item in items %}{{ loop.index }}. {{ item | upper }}\n{% endfor %}{{ name | default("nobody") }}',
      { items: ['a', 'b'] },
    );
    expect(text).toBe('1. A\n2. B\nnobody');
  });

  it('cannot reach the host through the constructor escape, nor leave anything behind', async () => {
    const constructorEscape = '{{ range.constructor("return typeof process + typeof require + typeof fetch")() }}';
    expect((await sandbox.renderTemplate(constructorEscape, {})).text).toBe('undefinedundefinedundefined');
    const pollute =
      '{{ range.constructor("Object.prototype.leak = 1; nunjucks.Environment.prototype.renderString = null; return 1")() }}';
    await sandbox.renderTemplate(pollute, {}).catch(() => null);
    expect(({} as Record<string, unknown>).leak).toBeUndefined();
    expect((await sandbox.renderTemplate('{{ o.leak }}|{{ name }}', { o: {}, name: 'clean' })).text).toBe('|clean');
  });

  it('leaves no patch on the built-ins only instances reach: iterators, generators, async functions', async () => {
    // Each patch alone, so that one refused does not keep the others from being tried.
    const patches = [
      'Object.getPrototypeOf([][Symbol.iterator]()).next = function () { return { done: true } }',
      'Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())).leak = 1',
      "Object.getPrototypeOf(''[Symbol.iterator]()).next = function () { return { done: true } }",
      'Object.getPrototypeOf(new Map().entries()).next = function () { return { done: true } }',
      'Object.getPrototypeOf(new Set().values()).next = function () { return { done: true } }',
      "Object.getPrototypeOf(/a/g[Symbol.matchAll]('a')).next = function () { return { done: true } }",
      'Object.getPrototypeOf(function* () {}).prototype.next = function () { return { done: true } }',
      'Object.getPrototypeOf(async function () {}).leak = 1',
      'Object.getPrototypeOf(async function* () {}).prototype.leak = 1',
      'Object.getPrototypeOf([].values().map((x) => x)).next = function () { return { done: true } }',
      'Object.getPrototypeOf(Iterator.from({ next: () => ({ done: true }) })).leak = 1',
    ];
    const patch = `{{ range.constructor("${patches.map((line) => `try { ${line} } catch (e) {}`).join('; ')}; return 1")() }}`;
    expect((await sandbox.renderTemplate(patch, {})).text).toBe('1');
    const look = [
      'Array.from([1, 2]).join()',
      "[...'ab'].join('')",
      "Array.from(new Map([['m', 1]]).keys()).join()",
      "Array.from(new Set(['s'])).join()",
      "Array.from('aa'.matchAll(/a/g)).length",
      'Array.from((function* () { yield 3 })()).join()',
      'typeof [][Symbol.iterator]().leak',
      'typeof (async function () {}).leak',
      'typeof (async function* () {})().leak',
      '[7].values().map((x) => x).toArray().join()',
      'typeof Iterator.from({ next: () => ({ done: true }) }).leak',
    ].join(" + '|' + ");
    const seen = await sandbox.renderTemplate(`{{ range.constructor("return ${look}")() }}`, {});
    expect(seen.text).toBe('1,2|ab|m|s|2|3|undefined|undefined|undefined|7|undefined');
  });

  it('ends a huge or endless loop and macro recursion with an error, and renders the next one', async () => {
    const endless = '{% for i in range(100000) %}{% for j in range(100000) %}{{ "" }}{% endfor %}{% endfor %}';
    const timedOut = await failure(timed.renderTemplate(endless, {}));
    expect(timedOut.kind).toBe('timeout');
    const huge = await failure(timed.renderTemplate('{% for i in range(100000000) %}{{ i }}{% endfor %}', {}));
    expect(['memory', 'timeout']).toContain(huge.kind);
    const macro = '{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}';
    expect((await failure(sandbox.renderTemplate(macro, {}))).detail).toMatch(/stack overflow/);
    expect((await sandbox.renderTemplate('ok {{ n }}', { n: 1 })).text).toBe('ok 1');
  });
});
