import { constants as fsConstants } from 'node:fs';
import { createRequire } from 'node:module';
import { constants as osConstants } from 'node:os';
import path from 'node:path';
import { loadPyodide, type PyodideAPI } from 'pyodide';
import { PYTHON_SETUP } from './python-harness.ts';
import { capWasmMemory } from './wasm-memory-cap.ts';

/**
 * Pyodide gives Python a bridge to JavaScript: any JavaScript object Python holds (and
 * `pyodide.ffi.to_js([])` makes one) leads through `.constructor.constructor` to the Function
 * constructor of the thread it runs in, and from there to `process`, `import()` and the network.
 * Removing modules in Python cannot close that (Python reaches any object through gc and
 * `__subclasses__`), so the thread's JavaScript is locked instead, once Pyodide has loaded:
 *
 * - no code from strings: `eval`, `Function` and the constructors of every function kind refuse;
 * - no `require` (Pyodide's loader leaves one on globalThis with fs, ws and child_process),
 *   `process`, `fetch` or `WebSocket` on the thread's global object;
 * - the `js` and `pyodide_js` modules are unregistered, `jsglobals` is an empty frozen object;
 * - Emscripten's sockets (which open WebSockets with the `ws` package) refuse to connect or listen;
 * - the WebAssembly memory cannot grow past the run's limit (Python then raises MemoryError).
 *
 * The file system Python sees is Emscripten's in-memory one: nothing of the host is mounted.
 */
const require = createRequire(import.meta.url);
const INDEX_URL = `${path.dirname(require.resolve('pyodide/package.json'))}/`;

function refusing(what: string) {
  const refuse = () => {
    throw new EvalError(`${what} is disabled in the sandbox`);
  };
  return new Proxy(refuse, { apply: refuse, construct: refuse });
}

function lockRealm() {
  const kinds = [() => {}, async () => {}, function* () {}, async function* () {}];
  for (const kind of kinds) {
    Object.defineProperty(Object.getPrototypeOf(kind), 'constructor', {
      value: refusing('Function'),
      writable: false,
      configurable: false,
    });
  }
  const global = globalThis as Record<string, unknown>;
  Object.defineProperty(globalThis, 'Function', { value: refusing('Function'), writable: false, configurable: false });
  Object.defineProperty(globalThis, 'eval', { value: refusing('eval'), writable: false, configurable: false });
  for (const name of ['require', 'process', 'fetch', 'WebSocket', 'XMLHttpRequest', 'EventSource', 'navigator'])
    delete global[name];
}

interface SocketOps {
  websocket_sock_ops: Record<string, unknown>;
}

function closeSockets(pyodide: PyodideAPI) {
  const module = (pyodide as unknown as { _module: { SOCKFS?: SocketOps } })._module;
  const ops = module.SOCKFS?.websocket_sock_ops;
  if (!ops) return;
  const refuse = () => {
    throw new Error('sockets are disabled in the sandbox');
  };
  for (const name of ['createPeer', 'connect', 'listen', 'accept', 'sendmsg']) ops[name] = refuse;
}

export interface LockedPython {
  run(code: string, argsJson: string, maxChars: number): string;
  limitMemory(mb: number): void;
  setInterrupt(buffer: Int32Array): void;
}

/**
 * Emscripten's NODEFS reads the fs flag numbers through `process.binding('constants')` when it
 * loads, and the permission model refuses every `process.binding`: it gets the public copies, and
 * every other binding stays refused.
 */
function answerConstantsBinding() {
  const constants = { fs: fsConstants, os: osConstants };
  const binding = (name: string) => {
    if (name === 'constants') return constants;
    throw new Error(`process.binding('${name}') is not available in the sandbox`);
  };
  Object.defineProperty(process, 'binding', { value: binding, writable: false, configurable: false });
}

export async function loadLockedPyodide(): Promise<LockedPython> {
  answerConstantsBinding();
  const memory = capWasmMemory();
  const pyodide = await loadPyodide({
    indexURL: INDEX_URL,
    jsglobals: Object.freeze(Object.create(null)),
    env: { HOME: '/home/pyodide' },
    stdin: () => null,
    stdout: () => {},
    stderr: () => {},
  });
  pyodide.unregisterJsModule('js');
  pyodide.unregisterJsModule('pyodide_js');
  closeSockets(pyodide);
  const scope = pyodide.globals.get('dict')();
  pyodide.runPython(PYTHON_SETUP, { globals: scope });
  const run = scope.get('_run') as (code: string, argsJson: string, maxChars: number) => string;
  scope.destroy();
  lockRealm();
  return {
    run,
    limitMemory: (mb) => memory.limit(mb * 1024 * 1024),
    setInterrupt: (buffer) => pyodide.setInterruptBuffer(buffer),
  };
}
