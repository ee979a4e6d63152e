import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { slowestEchoWhile } from './echo-probe.ts';
import { createSandbox } from './sandbox.ts';
import { launchPlans, startSandboxProcess } from './sandbox-process.ts';
import { failure } from './sandbox-testing.ts';

// The floor beneath the interpreters (docs/workflow-sandbox.md, "The process floor"): what code
// that escaped QuickJS or Pyodide would find in the sandbox process. Each capability (programs,
// environment, files, network) is tried from inside both languages, and from a probe that holds
// all of Node in a process started exactly as the sandbox process is.
process.env.ATHENA_SANDBOX_TEST_SECRET = 'must-not-leak';
const sandbox = createSandbox({ workers: 1, pythonWorkers: 1, memoryMb: 32, pythonMemoryMb: 160, timeoutMs: 15_000 });
afterAll(() => sandbox.close());

const asRoot = process.getuid?.() === 0;
/**
 * As root the sandbox runs as nobody in a network namespace, unless `nobody` cannot read this
 * checkout (a clone inside a mode-0700 folder): then it falls back to the permission model alone,
 * as documented, and these tests check that floor.
 */
const fullFloor = (() => {
  const [best] = launchPlans(fileURLToPath(new URL('./floor-probe/probe.mjs', import.meta.url)), '{}');
  return asRoot && best?.missing.length === 0;
})();
const scratch = mkdtempSync(path.join(tmpdir(), 'athena-floor-'));
const serverFile = path.join(scratch, 'master.key');
writeFileSync(serverFile, 'server-secret');

async function listening() {
  const server = createServer((socket) => socket.end('hello'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

describe('a Python code node', () => {
  it('cannot start a program with os.system or posix.system (the shell escape)', { timeout: 120_000 }, async () => {
    const marker = path.join(scratch, 'escaped.txt');
    const shell = (call: string) => `import os, posix\ndef main():\n    return {'out': str(${call}("id > ${marker}"))}`;
    // The first Python run loads Pyodide (seconds of CPU) in the sandbox process, which is already
    // up (a JavaScript run started it): the server keeps answering meanwhile.
    await sandbox.runCode('javascript', 'function main() { return {} }', {});
    const first = failure(sandbox.runCode('python3', shell('os.system'), {}));
    const { slowestMs } = await slowestEchoWhile(first);
    expect((await first).detail).toMatch(/AttributeError/);
    expect((await failure(sandbox.runCode('python3', shell('posix.system'), {}))).detail).toMatch(/AttributeError/);
    expect(() => readFileSync(marker)).toThrow();
    console.log(`slowest echo while Pyodide loaded: ${slowestMs.toFixed(0)} ms`);
    // It stalled 1.3–1.9 s while Pyodide loaded in a thread of the server's own process.
    expect(slowestMs).toBeLessThan(750);
  });

  it('finds no program, environment, host file or socket', async () => {
    const tries = {
      spawn: "import os\ndef main():\n    return {'r': str(os.spawnv(0, '/bin/sh', ['sh']))}",
      popen: "import os\ndef main():\n    return {'r': os.popen('id').read()}",
      files: `def main():\n    return {'r': open('${serverFile}').read()}`,
      environ: "def main():\n    return {'r': open('/proc/1/environ').read()}",
      network: "import socket\ndef main():\n    return {'r': str(socket.create_connection(('127.0.0.1', 80)))}",
    };
    for (const [what, code] of Object.entries(tries)) {
      const error = await failure(sandbox.runCode('python3', code, {}));
      expect(error.kind, what).toBe('error');
    }
    const { value } = await sandbox.runCode(
      'python3',
      "import os\ndef main():\n    return {'env': dict(os.environ)}",
      {},
    );
    expect(JSON.stringify(value)).not.toContain('must-not-leak');
  });
});

describe('a JavaScript code node', () => {
  it('finds no program, environment, host file or socket', async () => {
    const { value } = await sandbox.runCode(
      'javascript',
      `function main() {
        return { kinds: [typeof process, typeof require, typeof fetch, typeof WebSocket, typeof XMLHttpRequest, typeof Deno, typeof Bun].join() };
      }`,
      {},
    );
    expect(value).toEqual({ kinds: 'undefined,undefined,undefined,undefined,undefined,undefined,undefined' });
    const loader = await failure(
      sandbox.runCode('javascript', 'async function main() { await import("node:fs"); return {} }', {}),
    );
    expect(loader.kind).toBe('error');
  });
});

describe('the sandbox process', () => {
  it('runs with an empty environment, and as nobody when the server is root', async () => {
    await sandbox.runCode('javascript', 'function main() { return {} }', {});
    const status = readFileSync(`/proc/${sandbox.pid}/status`, 'utf8');
    const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]);
    expect(uid).toBe(fullFloor ? 65_534 : process.getuid?.());
    // Only what Node adds for the IPC channel itself.
    const names = readFileSync(`/proc/${sandbox.pid}/environ`, 'utf8').split('\0').filter(Boolean);
    expect(
      names.every((entry) => entry.startsWith('NODE_CHANNEL_')),
      names.join(' '),
    ).toBe(true);
  });

  it('refuses programs, the server environment and files, writes and sockets even to code holding all of Node', async () => {
    const { server, port } = await listening();
    try {
      const probe = fileURLToPath(new URL('./floor-probe/probe.mjs', import.meta.url));
      const targets = { serverFile, serverPid: process.pid, writeFile: path.join(scratch, 'written'), port };
      const [plan] = launchPlans(probe, JSON.stringify(targets));
      if (!plan) throw new Error('no way to start the sandbox process');
      const child = startSandboxProcess(plan);
      const report = await new Promise<Record<string, unknown>>((resolve, reject) => {
        child.once('message', (message) => resolve(message as Record<string, unknown>));
        child.once('exit', (code) => reject(new Error(`the probe exited with ${code}`)));
      });
      expect(report.env).toEqual([]);
      for (const capability of ['spawn', 'readServerFile', 'readServerEnviron', 'readPasswd', 'write', 'binding'])
        expect(report[capability], capability).toMatch(/^refused/);
      // Node 20's permission model has no network rule: there the network namespace (as root) refuses.
      const networkRefused = plan.missing.length === 0 || Number(process.versions.node.split('.')[0]) >= 25;
      if (networkRefused) expect(report.connect).toMatch(/^refused/);
      if (asRoot && !fullFloor) console.warn(`sandbox floor here: ${plan.name} (without ${plan.missing.join(', ')})`);
    } finally {
      server.close();
    }
  });
});
