import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const TEST_PHONE = '13800000000';
export const TEST_CODE = '246810';

export const tempDataDir = () => mkdtempSync(path.join(os.tmpdir(), 'athena-bench-'));

/** Starts the product exactly as the README does (`npm start`) with its own data directory. */
export function startProduct(opts: { port: number; dataDir: string; logLevel?: string }) {
  return spawn('npm', ['start'], {
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

/** RSS of the node process behind `npm start` (npm → sh → node), in MB. */
export async function serverRssMb(npmPid: number): Promise<number> {
  const { execSync } = await import('node:child_process');
  const pids = execSync(`pgrep -f "scripts/start.mjs" || true`).toString().trim().split('\n').filter(Boolean);
  let best = 0;
  for (const pid of pids) {
    try {
      const status = (await import('node:fs')).readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      best = Math.max(best, kb);
    } catch {
      // gone
    }
  }
  void npmPid;
  return Math.round(best / 1024);
}
