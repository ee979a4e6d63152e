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
    /**
     * The fake WeCom customer-service API the product calls (WECOM_API_BASE): its address (with
     * its /__control/ endpoints) and the credentials it accepts.
     */
    wecomApi: { url: string; corpId: string; secret: string };
  }
}

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The server's fake WeCom customer-service API (apps/server/src/testing/fake-wecom-api.ts). Imported
 * by a computed URL so that `tsc -p e2e` does not follow it into the server's sources, which are
 * type-checked with the server's own settings (its libraries differ from the browser tests').
 */
async function startFakeWecom(): Promise<{ url: string; corpId: string; secret: string; close(): Promise<void> }> {
  const fake = await import(new URL('../../apps/server/src/testing/fake-wecom-api.ts', import.meta.url).href);
  return fake.startFakeWecomApi();
}

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
  // The product reads WECOM_API_BASE once at start, so the fake runs for the whole suite.
  const wecom = await startFakeWecom();

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
      // 13800000008: the WeCom chat spec's team creator.
      // 13800000009: the fees-center spec's team creator (a balance of its own, starting at ¥0).
      // 13800000010: the platform-models spec's team creator (likewise; pays for a platform model).
      // 13800000011: the media spec's team creator (a quota of its own).
      // 13800000012: the media-to-knowledge spec's author (a personal space of its own).
      // 13800000013: the user-profile spec's team creator.
      // 13800000014: the customer-behaviour and satisfaction spec's team creator.
      // 13800000015: the activation-events spec's team creator.
      // 13800000016: the service-reports spec's team creator.
      // 13800000017 and 13800000170: the MCP server spec's team creator and member.
      SMS_TEST_NUMBERS: `${TEST_PHONE}:${TEST_CODE},13800000001:${TEST_CODE},13800000002:${TEST_CODE},13800000003:${TEST_CODE},13800000004:${TEST_CODE},13800000005:${TEST_CODE},13800000006:${TEST_CODE},13800000007:${TEST_CODE},13800000008:${TEST_CODE},13800000009:${TEST_CODE},13800000010:${TEST_CODE},13800000011:${TEST_CODE},13800000012:${TEST_CODE},13800000013:${TEST_CODE},13800000014:${TEST_CODE},13800000015:${TEST_CODE},13800000016:${TEST_CODE},13800000017:${TEST_CODE},13800000170:${TEST_CODE}`,
      // The test number is also a platform operator (custom AI business spec).
      OPERATOR_PHONES: TEST_PHONE,
      // The suite signs in many times from one address.
      SMS_DAILY_LIMIT_PER_IP: '1000',
      // The model-key spec points keys at a fake OpenAI server on 127.0.0.1.
      ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true',
      // The chat-history spec embeds /only-chat-history in a page of another site (127.0.0.1, any port).
      FRAME_ANCESTORS: "'self' http://127.0.0.1:*",
      // The WeCom chat spec's customer service talks to a fake WeCom on 127.0.0.1.
      WECOM_API_BASE: wecom.url,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  await waitForServer(baseUrl, child, 60_000).catch(async (error) => {
    await wecom.close();
    throw error;
  });

  project.provide('baseUrl', baseUrl);
  project.provide('serverLog', serverLog);
  project.provide('wecomApi', { url: wecom.url, corpId: wecom.corpId, secret: wecom.secret });

  return async () => {
    // A server that already stopped (it crashed, or was ended from outside) sends no exit to wait for.
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
      await exited;
    }
    await wecom.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
