import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { TEST_CODE, TEST_PHONE } from './test-number.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    serverLog: string;
  }
}

const root = fileURLToPath(new URL('../..', import.meta.url));

async function waitForServer(url: string, child: ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/athena/v1/platform/info`, { method: 'POST' });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`server did not answer within ${timeoutMs} ms`);
}

export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'athena-e2e-'));
  const port = 3100 + Math.floor(Math.random() * 800);
  const baseUrl = `http://localhost:${port}`;
  const serverLog = path.join(root, 'e2e/artifacts/server.log');
  rmSync(path.dirname(serverLog), { recursive: true, force: true });
  await import('node:fs').then((fs) => fs.mkdirSync(path.dirname(serverLog), { recursive: true }));
  const log = createWriteStream(serverLog);

  const child = spawn('npm', ['start'], {
    cwd: root,
    detached: true,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      // 13800000001 and 13800000002: the team spec's creator and invitee (same code).
      // 13800000003 and 13800000004: the model-key spec's admin and member.
      // 13800000005: the agents spec's author (a personal space of its own).
      // 13800000006: the knowledge spec's author (likewise).
      // 13800000007: the chat-history spec's team creator.
      SMS_TEST_NUMBERS: `${TEST_PHONE}:${TEST_CODE},13800000001:${TEST_CODE},13800000002:${TEST_CODE},13800000003:${TEST_CODE},13800000004:${TEST_CODE},13800000005:${TEST_CODE},13800000006:${TEST_CODE},13800000007:${TEST_CODE}`,
      // The test number is also a platform operator (custom AI business spec).
      OPERATOR_PHONES: TEST_PHONE,
      // The suite signs in many times from one address.
      SMS_DAILY_LIMIT_PER_IP: '1000',
      // The model-key spec points keys at a fake OpenAI server on 127.0.0.1.
      ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true',
      // The chat-history spec embeds /only-chat-history in a page of another site (127.0.0.1, any port).
      FRAME_ANCESTORS: "'self' http://127.0.0.1:*",
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  await waitForServer(baseUrl, child, 60_000);

  project.provide('baseUrl', baseUrl);
  project.provide('serverLog', serverLog);

  return async () => {
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  };
}
