import { randomBytes } from 'node:crypto';
import { authRoutes, type Envelope, type RouteData, type RouteDescriptor } from '@athena/contract';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { Database } from '../platform/db/database.ts';
import { startJobs } from '../platform/jobs.ts';
import type { RealNameProvider } from '../platform/realname/realname-provider.ts';
import type { SmsProvider } from '../platform/sms/sms-provider.ts';
import { createDevWechatProvider } from '../platform/wechat/dev-wechat.ts';
import type { WechatProvider } from '../platform/wechat/wechat-provider.ts';
import { openTestDatabase } from './test-database.ts';

export interface TestAppOptions {
  env?: Record<string, string>;
  sms?: SmsProvider;
  wechat?: WechatProvider;
  wechatUser?: (openid: string) => Promise<{ unionid?: string }>;
  /** Real-name provider; the dev one by default. */
  realName?: RealNameProvider;
  /** A movable clock for expiry tests. */
  now?: () => Date;
  /** Receives every server log line (JSON), for tests that check what is and is not logged. */
  logLines?: string[];
  /** Starts the job runner (pg-boss with every module's workers and schedules, e.g. the knowledge indexer). */
  jobs?: boolean;
  /**
   * Another process on that test app's database, with its master key: what several servers behind
   * a load balancer share. The first app closes the database.
   */
  sameDatabaseAs?: { database: Database; masterKey: Buffer };
}

/** Records the codes a "phone" would receive, through the real SMS code service. */
export function createSmsInbox(): SmsProvider & { last(phone: string): string | undefined; sent: number } {
  const codes = new Map<string, string>();
  const inbox = {
    name: 'dev' as const,
    sent: 0,
    async sendCode(phone: string, code: string) {
      codes.set(phone, code);
      inbox.sent += 1;
    },
    last: (phone: string) => codes.get(phone),
  };
  return inbox;
}

/**
 * The real application on a fresh in-memory PostgreSQL (PGlite), driven through HTTP with
 * app.inject. Vendors are the only stand-ins: an SMS inbox and the dev WeChat provider by default.
 */
export async function createTestApp(options: TestAppOptions = {}) {
  const config = loadConfig({
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'silent',
    WEB_DIST: '/nonexistent',
    // Tests never reach the real WeCom: a closed local port unless a test starts the fake.
    WECOM_API_BASE: 'http://127.0.0.1:9',
    ...options.env,
  });
  const database = options.sameDatabaseAs?.database ?? (await openTestDatabase());
  const sms = options.sms ?? createSmsInbox();
  const masterKey = options.sameDatabaseAs?.masterKey ?? randomBytes(32);
  const app = await buildApp({
    config,
    database,
    sms: (_log: FastifyBaseLogger) => sms,
    wechat: options.wechat ?? createDevWechatProvider(config.PUBLIC_URL),
    wechatUser: options.wechatUser,
    realName: options.realName,
    masterKey,
    now: options.now,
    logger: options.logLines
      ? { level: 'trace', stream: { write: (line: string) => void options.logLines?.push(line) } }
      : false,
  });
  await app.ready();
  // The same job runner as production: every module's queue workers and schedules.
  const jobs = options.jobs ? await startJobs(database, app.appModules, app.log) : null;
  const indexer = jobs ? app.modules.knowledge.indexerWorker : null;

  /**
   * POSTs JSON through the app. Given a contract descriptor (`call(authRoutes.userInfo, {}, h)`),
   * `data` takes that route's type; the body stays free, so tests can send what clients must not.
   */
  function call<R extends RouteDescriptor>(
    route: R,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: Envelope<RouteData<R>> }>;
  function call<T = unknown>(
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: Envelope<T> }>;
  async function call(target: string | RouteDescriptor, body?: unknown, headers: Record<string, string> = {}) {
    const response = await app.inject({
      method: 'POST',
      url: typeof target === 'string' ? target : target.path,
      headers: { 'content-type': 'application/json', ...headers },
      payload: body === undefined ? '{}' : JSON.stringify(body),
    });
    return { status: response.statusCode, body: response.json() as Envelope };
  }

  /** Signs in by SMS through the real endpoints and returns the session token. */
  async function signInBySms(phone: string, headers: Record<string, string> = {}) {
    await call('/accountv2/login/send_sms', { phone, type: 'login' }, headers);
    const code = (sms as ReturnType<typeof createSmsInbox>).last?.(phone);
    const result = await call(authRoutes.bySms, { phone, code }, headers);
    if (result.body.code !== 0) throw new Error(`sign-in failed: ${JSON.stringify(result.body)}`);
    return result.body.data.login_token;
  }

  return {
    app,
    config,
    database,
    sms,
    masterKey,
    call,
    signInBySms,
    indexer,
    close: async () => {
      await jobs?.stop();
      await app.close();
      if (!options.sameDatabaseAs) await database.close();
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
