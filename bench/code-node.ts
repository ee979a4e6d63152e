// Code and template nodes in the sandbox (apps/server/src/modules/workflow/sandbox), through the
// same front the workflow module uses: worker threads, JSON across, limits on.
// - JavaScript cold: the first run, which starts a thread and loads QuickJS;
// - JavaScript warm: a fresh QuickJS runtime and context per run in a warm thread (target ≤ 5 ms);
// - template warm: a Jinja2 render in the thread's warm, frozen nunjucks context;
// - Python first run: starts a thread and loads Pyodide; Python warm: later runs.
// Run: npx tsx bench/code-node.ts   (BENCH_RUNS to change the warm runs, 200 by default)
import { createSandbox } from '../apps/server/src/modules/workflow/sandbox/sandbox.ts';

const runs = Number(process.env.BENCH_RUNS ?? 200);
const sandbox = createSandbox({ workers: 1, pythonWorkers: 1, memoryMb: 64, pythonMemoryMb: 512, timeoutMs: 10_000 });

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
const ms = (value: number) => `${value.toFixed(2)} ms`;

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function report(label: string, work: () => Promise<unknown>) {
  const times: number[] = [];
  for (let index = 0; index < runs; index++) times.push(await timed(work));
  times.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(22)} p50 ${ms(percentile(times, 0.5))}  p95 ${ms(percentile(times, 0.95))}  (${runs} runs, round trip)`,
  );
}

const jsCode =
  'function main({ items }) { return { total: items.reduce((sum, n) => sum + n, 0), count: items.length } }';
const jsArgs = { items: Array.from({ length: 100 }, (_, index) => index) };
const template = 'Dear {{ name | title }},\n{% for item in items %}- {{ loop.index }}. {{ item }}\n{% endfor %}';
const templateVars = { name: 'ada lovelace', items: ['one', 'two', 'three'] };
const pyCode = 'def main(items: list) -> dict:\n    return {"total": sum(items), "count": len(items)}';

console.log(
  `JavaScript cold        ${ms(await timed(() => sandbox.runCode('javascript', jsCode, jsArgs)))}  (thread start + QuickJS load + run)`,
);
await report('JavaScript warm', () => sandbox.runCode('javascript', jsCode, jsArgs));
console.log(
  `template first         ${ms(await timed(() => sandbox.renderTemplate(template, templateVars)))}  (nunjucks loaded and frozen in QuickJS)`,
);
await report('template warm', () => sandbox.renderTemplate(template, templateVars));
console.log(
  `Python first run       ${ms(await timed(() => sandbox.runCode('python3', pyCode, jsArgs)))}  (thread start + Pyodide load + run)`,
);
await report('Python warm', () => sandbox.runCode('python3', pyCode, jsArgs));
await sandbox.close();
