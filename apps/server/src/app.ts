import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { createAccountRepo } from './modules/auth/account.repo.ts';
import { registerAuthRoutes } from './modules/auth/auth.routes.ts';
import { createSessionService } from './modules/auth/session.service.ts';
import { createSignInService } from './modules/auth/sign-in.service.ts';
import { createSmsCodeService } from './modules/auth/sms-code.service.ts';
import { registerWechatCallback } from './modules/auth/wechat-callback.routes.ts';
import { createWechatLoginService } from './modules/auth/wechat-login.service.ts';
import { registerPlatformRoutes } from './modules/platform/platform.routes.ts';
import { createSpaceRepo } from './modules/space/space.repo.ts';
import { registerSpaceRoutes } from './modules/space/space.routes.ts';
import { createSpaceService } from './modules/space/space.service.ts';
import { createInvalidationBus, INVALIDATION_CHANNEL, type InvalidationBus } from './platform/cache.ts';
import type { Database } from './platform/db/database.ts';
import { installErrorHandling, sendError } from './platform/http/error-handler.ts';
import type { SmsProvider } from './platform/sms/sms-provider.ts';
import type { WechatProvider } from './platform/wechat/wechat-provider.ts';

export const VERSION = '0.1.0';

export interface AppDeps {
  config: Config;
  database: Database;
  sms: SmsProvider | ((log: FastifyBaseLogger) => SmsProvider);
  wechat: WechatProvider;
  /** Only the official provider has a callback; it needs the vendor's user lookup. */
  wechatUser?: (openid: string) => Promise<{ unionid?: string }>;
  masterKey: Buffer;
  now?: () => Date;
  logger?: boolean | object;
}

const API_PREFIXES = ['/api/', '/accountv2/', '/v1/'];

/** Builds the whole HTTP application from explicit dependencies; tests pass fakes of vendors only. */
export async function buildApp(
  deps: AppDeps,
): Promise<FastifyInstance & { services: ReturnType<typeof createServices> }> {
  const { config } = deps;
  const app = Fastify({
    logger: deps.logger ?? { level: config.LOG_LEVEL },
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: false,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Athena API', version: VERSION, description: 'Every call is POST JSON; see docs/api.md.' },
    },
    transform: jsonSchemaTransform,
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());

  const bus = createInvalidationBus({
    notify: (key) => deps.database.notify(INVALIDATION_CHANNEL, key),
    listen: (onMessage) => deps.database.listen(INVALIDATION_CHANNEL, onMessage),
  });
  await bus.start();
  const services = createServices(deps, bus, app.log);
  app.decorate('authenticator', {
    resolveSession: services.sessions.resolve,
    roleIn: services.spaceRepo.roleIn,
  });

  registerPlatformRoutes(app, {
    version: VERSION,
    wechatProvider: deps.wechat.name,
    smsProvider: services.smsProvider.name,
    agentApiBase: config.AGENT_API_BASE,
  });
  registerAuthRoutes(app, { ...services, devWechat: deps.wechat.name === 'dev' });
  if (deps.wechat.name === 'official' && config.WECHAT_CALLBACK_TOKEN) {
    await app.register(registerWechatCallback, {
      callbackToken: config.WECHAT_CALLBACK_TOKEN,
      wechat: services.wechat,
      fetchUser: deps.wechatUser,
      now: deps.now ?? (() => new Date()),
    });
  }
  registerSpaceRoutes(app, services.spaces);

  await serveWebApp(app, config.WEB_DIST);
  return Object.assign(app as FastifyInstance, { services });
}

function createServices(deps: AppDeps, bus: InvalidationBus, log: FastifyBaseLogger) {
  const { config, database } = deps;
  const db = database.db;
  const now = deps.now ?? (() => new Date());
  const smsProvider = typeof deps.sms === 'function' ? deps.sms(log) : deps.sms;
  const accounts = createAccountRepo(db, bus);
  const spaceRepo = createSpaceRepo(db, bus);
  const sessions = createSessionService({ db, ttlDays: config.SESSION_TTL_DAYS, now, bus });
  const smsCodes = createSmsCodeService({
    db,
    provider: smsProvider,
    secret: deps.masterKey,
    testNumbers: config.SMS_TEST_NUMBERS,
    dailyLimitPerPhone: config.SMS_DAILY_LIMIT_PER_PHONE,
    dailyLimitPerIp: config.SMS_DAILY_LIMIT_PER_IP,
    now,
    log,
  });
  const wechat = createWechatLoginService({
    db,
    provider: deps.wechat,
    qrTtlSeconds: config.WECHAT_QR_TTL_SECONDS,
    now,
  });
  const signIn = createSignInService({ accounts, sessions, smsCodes, wechat });
  const spaces = createSpaceService({ spaces: spaceRepo, accounts });
  return { bus, smsProvider, accounts, spaceRepo, sessions, smsCodes, wechat, signIn, spaces };
}

/** The built SPA with history fallback; API paths that match nothing get the JSON envelope. */
async function serveWebApp(app: FastifyInstance, webDist: string) {
  const hasBuild = fs.existsSync(path.join(webDist, 'index.html'));
  if (hasBuild) {
    // Hashed assets never change; index.html is always revalidated so new builds reach people.
    await app.register(fastifyStatic, {
      root: webDist,
      // "/" is the SPA itself; deeper unknown paths fall through to the handler below.
      index: 'index.html',
      setHeaders: (res, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = API_PREFIXES.some((prefix) => request.url.startsWith(prefix));
    if (isApi || request.method !== 'GET' || !hasBuild) return sendError(request, reply, 'ROUTE_NOT_FOUND');
    return reply.type('text/html').sendFile('index.html', { maxAge: 0 });
  });
}
