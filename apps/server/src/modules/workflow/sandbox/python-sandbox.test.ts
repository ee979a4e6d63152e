import { type WorkflowGraphInput, workflowGraphSchema } from '@athena/contract';
import { runWorkflow } from '@athena/workflow-engine';
import { afterAll, describe, expect, it } from 'vitest';
import { createCodeExecutor } from './code-executor.ts';
import { slowestEchoWhile } from './echo-probe.ts';
import { createSandbox } from './sandbox.ts';
import { failure } from './sandbox-testing.ts';
import { createTemplateExecutor } from './template-executor.ts';

// Escapes tried from Python (Pyodide in its thread), and the code and template nodes run by the
// real engine. The first Python run loads Pyodide (seconds); runs that retire the thread are last.
// The time limit is generous: under a loaded CI machine a mere import took more than 1.5 s.
process.env.ATHENA_SANDBOX_TEST_SECRET = 'must-not-leak';
const sandbox = createSandbox({ workers: 1, pythonWorkers: 1, memoryMb: 32, pythonMemoryMb: 160, timeoutMs: 4_000 });
// JavaScript and templates that never end need no generous limit to end as timeouts: a short one
// spares the file seconds of waiting. It never starts a Python thread.
const short = createSandbox({ workers: 1, pythonWorkers: 1, memoryMb: 32, pythonMemoryMb: 160, timeoutMs: 1_000 });
afterAll(() => Promise.all([sandbox.close(), short.close()]));

const py = (code: string, args: Record<string, unknown> = {}) => sandbox.runCode('python3', code, args);

describe('Python code', () => {
  it('runs main(**args) with JSON in and out, and reports errors with their line', { timeout: 60_000 }, async () => {
    const { value } = await py(
      'def main(a: int, b: str) -> dict:\n    return {"sum": a + 1, "text": b * 2, "none": None}',
      {
        a: 1,
        b: 'ab',
      },
    );
    expect(value).toEqual({ sum: 2, text: 'abab', none: null });
    const error = await failure(py('def main():\n    x = 1\n    return x / 0'));
    expect(error.detail).toBe('ZeroDivisionError: division by zero (line 3)');
    expect((await failure(py('def main(:'))).detail).toMatch(/SyntaxError/);
    expect((await failure(py('def main():\n    return [1]'))).kind).toBe('output');
  });

  it('sees no host file, environment, process, network or JavaScript bridge', async () => {
    expect((await failure(py("def main():\n    return {'x': open('/etc/passwd').read()}"))).detail).toMatch(
      /FileNotFoundError/,
    );
    const { value } = await py("import os\ndef main():\n    return {'root': os.listdir('/'), 'env': dict(os.environ)}");
    const seen = value as { root: string[]; env: Record<string, string> };
    for (const host of ['etc', 'usr', 'work', 'root']) expect(seen.root).not.toContain(host);
    expect(JSON.stringify(seen.env)).not.toContain('must-not-leak');
    for (const blocked of [
      'import js',
      'import pyodide_js',
      'from pyodide.http import pyfetch',
      'from pyodide.code import run_js',
      'import micropip',
      'import subprocess',
      'import socket',
      'import urllib.request',
      'import ctypes',
    ]) {
      const error = await failure(py(`def main():\n    ${blocked}\n    return {}`));
      expect(error.detail, blocked).toMatch(/not available in the sandbox/);
    }
  });

  it('cannot reach JavaScript through objects it digs up (gc, to_js)', async () => {
    // Any JavaScript object leads to the Function constructor; in the locked thread it refuses.
    const dig = `import gc
def main():
    ffi = next(o for o in gc.get_objects() if type(o).__name__ == 'module' and o.__name__ == 'pyodide.ffi')
    array = ffi.to_js([1])
    return {'kind': str(array.constructor.constructor('return typeof process')())}`;
    const error = await failure(py(dig));
    expect(error.kind).toBe('error');
    expect(error.detail).toMatch(/JsException/);
    expect(error.detail).not.toMatch(/object/);
  });

  it("keeps one run's changes to modules and builtins from the next run", async () => {
    await py(
      'import builtins, json\ndef main():\n    builtins.leak = 1\n    json.dumps = lambda *a, **k: "pwned"\n    import colorsys\n    return {}',
    );
    const { value } = await py(
      "import builtins, json, sys\ndef main():\n    return {'leak': hasattr(builtins, 'leak'), 'dumps': json.dumps([1]), 'colorsys': 'colorsys' in sys.modules}",
    );
    expect(value).toEqual({ leak: false, dumps: '[1]', colorsys: false });
  });
});

describe('Python threads per space', () => {
  it("never show one space's in-place module changes to another space", { timeout: 180_000 }, async () => {
    // The restore between runs undoes rebound names, not changes inside a module's objects: a class
    // attribute survives in its thread. A thread that ran a space's code serves that space only.
    const spaced = createSandbox({ workers: 1, pythonWorkers: 2, memoryMb: 32, pythonMemoryMb: 160, timeoutMs: 4_000 });
    try {
      const set = (space: string) =>
        spaced.runCode(
          'python3',
          `import json\ndef main():\n    json.JSONEncoder.leak = '${space}'\n    return {}`,
          {},
          { space },
        );
      const seen = async (space: string) =>
        (
          await spaced.runCode(
            'python3',
            "import json\ndef main():\n    return {'leak': getattr(json.JSONEncoder, 'leak', None)}",
            {},
            { space },
          )
        ).value;
      await set('A');
      expect(await seen('A')).toEqual({ leak: 'A' }); // the same team's thread: allowed to carry over
      expect(await seen('B')).toEqual({ leak: null });
      await set('B');
      expect(spaced.threads.python).toBe(2);
      // The pool is full: a third space ends the least recently used thread (A's), never B's.
      expect(await seen('C')).toEqual({ leak: null });
      expect(spaced.threads.python).toBe(2);
      expect(await seen('B')).toEqual({ leak: 'B' });
      expect(await seen('A')).toEqual({ leak: null });
    } finally {
      await spaced.close();
    }
  });
});

describe('code and template nodes in the engine', () => {
  const graph = (nodes: WorkflowGraphInput['nodes'], outputs: Array<{ name: string; selector: string[] }>) =>
    workflowGraphSchema.parse({
      nodes: [
        { id: 'start', type: 'start', data: { inputs: [{ name: 'q', type: 'text' }] } },
        ...nodes,
        { id: 'end', type: 'end', data: { outputs } },
      ],
      edges: [
        { id: 'e1', source: 'start', target: nodes[0]?.id ?? '' },
        { id: 'e2', source: nodes[0]?.id ?? '', target: 'end' },
      ],
    });
  const run = (g: ReturnType<typeof graph>, on = sandbox) =>
    runWorkflow({
      graph: g,
      inputs: { q: 'hello' },
      system: { query: '', files: [], user_id: 'u', run_id: 'r', workflow_id: 'w', conversation_id: null },
      executors: { code: createCodeExecutor(on)('space-engine'), template: createTemplateExecutor(on)('space-engine') },
    });
  const code = (language: 'javascript' | 'python3', source: string, type: 'string' | 'number' = 'string') => ({
    id: 'code',
    type: 'code' as const,
    data: {
      language,
      code: source,
      variables: [{ name: 'q', selector: ['start', 'q'] }],
      outputs: [{ name: 'out', type }],
    },
  });

  it('runs JavaScript, Python and template nodes on the run variables', async () => {
    const jsRun = await run(
      graph(
        [code('javascript', 'function main({ q }) { return { out: q.toUpperCase() } }')],
        [{ name: 'r', selector: ['code', 'out'] }],
      ),
    );
    expect(jsRun.outputs).toEqual({ r: 'HELLO' });
    const pyRun = await run(
      graph([code('python3', 'def main(q):\n    return {"out": q[::-1]}')], [{ name: 'r', selector: ['code', 'out'] }]),
    );
    expect(pyRun.outputs).toEqual({ r: 'olleh' });
    const template = {
      id: 'tpl',
      type: 'template' as const,
      data: { template: '{{ q | title }}!', variables: [{ name: 'q', selector: ['start', 'q'] }] },
    };
    expect((await run(graph([template], [{ name: 'r', selector: ['tpl', 'output'] }]))).outputs).toEqual({
      r: 'Hello!',
    });
  });

  it('fails the node with the catalogue code of what went wrong', async () => {
    const cases: Array<[ReturnType<typeof code>, string, typeof sandbox]> = [
      [code('javascript', 'function main() { while (true) {} }'), 'WORKFLOW_CODE_TIMEOUT', short],
      [code('javascript', 'function main() { throw new Error("boom") }'), 'WORKFLOW_CODE_ERROR', sandbox],
      [code('javascript', 'function main() { return { out: 1 } }'), 'WORKFLOW_CODE_OUTPUT_INVALID', sandbox],
      [code('python3', 'def main(q):\n    return {}'), 'WORKFLOW_CODE_OUTPUT_INVALID', sandbox],
    ];
    for (const [node, expected, on] of cases) {
      const summary = await run(graph([node], [{ name: 'r', selector: ['code', 'out'] }]), on);
      expect(summary.result).toBe('failed');
      expect(summary.failure?.error.code, node.data.code).toBe(expected);
    }
    const endless = {
      id: 'tpl',
      type: 'template' as const,
      data: { template: '{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}' },
    };
    const summary = await run(graph([endless], []), short);
    expect(summary.failure?.error.code).toBe('WORKFLOW_TEMPLATE_ERROR');
  });
});

// Last: each of these ends the Python thread, and a new one loads Pyodide again.
describe('Python limits', () => {
  it('ends an infinite loop while the server thread answers, and never reuses that thread', async () => {
    const run = failure(py('import builtins\ndef main():\n    builtins.dirty = True\n    while True:\n        pass'));
    const { slowestMs, echoes } = await slowestEchoWhile(run);
    expect((await run).kind).toBe('timeout');
    // Had the loop held the server's thread, an echo would have waited about the whole time limit.
    expect(echoes).toBeGreaterThan(0);
    expect(slowestMs).toBeLessThan(sandbox.options.timeoutMs / 2);
    expect(sandbox.threads.python).toBe(0);
  });

  it('bounds a memory bomb and deep recursion in a clean interpreter', { timeout: 60_000 }, async () => {
    const { value } = await py("import builtins\ndef main():\n    return {'dirty': hasattr(builtins, 'dirty')}");
    expect(value).toEqual({ dirty: false });
    expect((await failure(py("def main():\n    return {'n': len('a' * 10**10)}"))).kind).not.toBe('timeout');
    const deep = await failure(py('def main():\n    return main()'));
    expect(deep.detail).toMatch(/RecursionError/);
    const grow = 'def main():\n    items = []\n    while True:\n        items.append("x" * 1000000 + str(len(items)))';
    expect((await failure(py(grow))).kind).toBe('memory');
    expect(sandbox.threads.python).toBe(0);
  });
});
