import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { authRoutes, type Envelope, type RouteData } from '@athena/contract';
import { freePort } from './free-port.ts';

const root = fileURLToPath(new URL('../../../..', import.meta.url));

/**
 * One Athena server as a real process, started the way `npm start` does (scripts/start.mjs bundles
 * the server and runs it in this same Node), on its own port and data directory. Its log is kept in
 * memory: the dev SMS provider prints sign-in codes there, and a failure shows what it printed.
 */
export interface AthenaProcess {
  name: string;
  url: string;
  output(): string;
  /** POSTs JSON to a path of this server and returns the envelope. */
  call<T = unknown>(path: string, body?: unknown, headers?: Record<string, string>): Promise<Envelope<T>>;
  /** Signs in through the real SMS endpoints, reading the code from this server's log. */
  signIn(phone: string): Promise<string>;
  /** Ends the process (SIGTERM by default; SIGKILL for a crash) and returns its exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** A first start on an empty database runs every migration; on a loaded 2-core machine that is slow. */
const START_WITHIN_MS = 60_000;

/**
 * Starts a server and waits until it answers. With `dataDir` (to start again on the same data) the
 * caller owns that folder; otherwise a temporary one is made and removed when the process stops.
 */
export async function startAthena(
  name: string,
  env: Record<string, string>,
  options: { dataDir?: string } = {},
): Promise<AthenaProcess> {
  const port = await freePort();
  const ownDir = options.dataDir ? null : mkdtempSync(path.join(os.tmpdir(), `athena-${name}-`));
  const dataDir = options.dataDir ?? (ownDir as string);
  const removeOwnDir = () => {
    if (ownDir) rmSync(ownDir, { recursive: true, force: true });
  };
  // No web build needed: the API is what is under test.
  const webDist = path.join(dataDir, 'web');
  mkdirSync(webDist, { recursive: true });
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html>');
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      WEB_DIST: webDist,
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));

  async function call<T>(target: string, body: unknown = {}, headers: Record<string, string> = {}) {
    const res = await fetch(`${url}${target}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return (await res.json()) as Envelope<T>;
  }

  const deadline = Date.now() + START_WITHIN_MS;
  const giveUp = async (why: string) => {
    child.kill('SIGKILL');
    await exited;
    removeOwnDir();
    return new Error(`${name} ${why}:\n${output}`);
  };
  for (;;) {
    if (child.exitCode !== null) throw await giveUp(`exited with ${child.exitCode}`);
    try {
      if ((await call('/api/athena/v1/platform/info')).code === 0) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw await giveUp(`did not answer within ${START_WITHIN_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    name,
    url,
    output: () => output,
    call,
    async signIn(phone) {
      const pattern = new RegExp(`SMS code for ${phone}: (\\d+)`, 'g');
      const codes = () => [...output.matchAll(pattern)].map((match) => match[1]);
      const before = codes().length;
      const sent = await call('/accountv2/login/send_sms', { phone, type: 'login' });
      if (sent.code !== 0) throw new Error(`send_sms on ${name}: ${JSON.stringify(sent)}`);
      // The log line may reach the pipe just after the answer.
      const until = Date.now() + 5_000;
      while (codes().length === before && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      const code = codes()[before];
      if (!code) throw new Error(`no SMS code for ${phone} in the log of ${name}`);
      const login = await call<RouteData<typeof authRoutes.bySms>>(authRoutes.bySms.path, { phone, code });
      if (login.code !== 0) throw new Error(`sign-in on ${name}: ${JSON.stringify(login)}`);
      return login.data.login_token;
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      const code = await exited;
      removeOwnDir();
      // An unclean stop fails the test; the end of the log says what the process was doing.
      if (code !== 0 && signal !== 'SIGKILL') {
        console.error(`${name} stopped with ${code}:\n${output.split('\n').slice(-15).join('\n')}`);
      }
      return code;
    },
  };
}
