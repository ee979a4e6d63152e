import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const TEST_PHONE = '13800000000';
export const TEST_CODE = '246810';

export const tempDataDir = () => mkdtempSync(path.join(os.tmpdir(), 'athena-bench-'));

const started = new Set<ChildProcess>();
// A bench that fails half-way must not leave its servers running (they are detached, in process
// groups of their own, and would hold their ports and the pipe the bench's output goes through).
process.once('exit', () => {
  for (const child of started) {
    if (child.exitCode === null && child.pid) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
  }
});

/** Starts the product exactly as the README does (`npm start`) with its own data directory. */
export function startProduct(opts: { port: number; dataDir: string; logLevel?: string }) {
  const child = spawn('npm', ['start'], {
    cwd: root,
    detached: true,
    env: {
      ...process.env,
      PORT: String(opts.port),
      DATA_DIR: opts.dataDir,
      LOG_LEVEL: opts.logLevel ?? 'warn',
      SMS_TEST_NUMBERS: `${TEST_PHONE}:${TEST_CODE}`,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  started.add(child);
  child.once('exit', () => started.delete(child));
  return child;
}

export async function stop(child: ChildProcess) {
  if (child.exitCode !== null || !child.pid) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  await exited;
}

export async function post<T>(url: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { code: number; data: T; msg: string };
  if (json.code !== 0) throw new Error(`${url}: ${json.code} ${json.msg}`);
  return json.data;
}

export async function waitUntil(check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('timed out');
}

export async function signIn(base: string) {
  const data = await post<{ login_token: string }>(`${base}/accountv2/login/by_sms`, {
    phone: TEST_PHONE,
    code: TEST_CODE,
  });
  return data.login_token;
}

/**
 * The node process behind `npm start` (npm → sh → node; or `node scripts/start.mjs` itself): found
 * among the descendants of `npmPid`, never by name (other servers on the machine run the same script).
 */
export function serverPid(npmPid: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone
    }
  }
  const queue = [npmPid];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    try {
      // The node process itself, not the shell npm runs it through (whose command line names it too).
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (/(^|\/)node$/.test(argv[0]) && argv.includes('scripts/start.mjs')) return pid;
    } catch {
      // gone
    }
    queue.push(...(children.get(pid) ?? []));
  }
  throw new Error(`no server process under ${npmPid}`);
}

/** A process's resident memory in MB (0 once it is gone). */
export function rssMb(pid: number): number {
  try {
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
}

/** RSS of the server `npm start` runs under `npmPid`, in MB. */
export const serverRssMb = async (npmPid: number) => rssMb(serverPid(npmPid));
