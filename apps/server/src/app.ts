import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { createAccountModule } from './modules/account/index.ts';
import { createAgentModule } from './modules/agent/index.ts';
import { createAuthModule } from './modules/auth/index.ts';
import { createBillingModule } from './modules/billing/index.ts';
import { createChatHistoryModule } from './modules/chat-history/index.ts';
import { createCustomBusinessModule } from './modules/custom-business/index.ts';
import { createKnowledgeModule } from './modules/knowledge/index.ts';
import { createMcpModule } from './modules/mcp/index.ts';
import { createMcpClientModule } from './modules/mcp-client/index.ts';
import { createMediaModule, findTools } from './modules/media/index.ts';
import { createModelKeyModule } from './modules/model-key/index.ts';
import { createPlatformInfoModule } from './modules/platform-info/index.ts';
import { createRealNameModule } from './modules/realname/index.ts';
import { createSpaceModule } from './modules/space/index.ts';
import { createAuditRepo, createTeamModule } from './modules/team/index.ts';
import { createUserProfileModule } from './modules/user-profile/index.ts';
import { createWorkflowModule } from './modules/workflow/index.ts';
import { createInvalidationBus, INVALIDATION_CHANNEL, type InvalidationBus } from './platform/cache.ts';
import type { Database } from './platform/db/database.ts';
import { createPlannerStatistics } from './platform/db/planner-statistics.ts';
import { createEvents, EVENTS_CHANNEL, type Events } from './platform/events.ts';
import { closeIdleConnectionsWhileClosing } from './platform/http/close-idle.ts';
import { installErrorHandling, sendError } from './platform/http/error-handler.ts';
import { responseSerializer } from './platform/http/response-serializer.ts';
import { installSecurityHeaders } from './platform/http/security-headers.ts';
import type { AppModule } from './platform/module.ts';
import { createRateLimits } from './platform/rate-limit/rate-limits.ts';
import type { RealNameProvider } from './platform/realname/realname-provider.ts';
import type { SmsProvider } from './platform/sms/sms-provider.ts';
import { createObjectStorage } from './platform/storage.ts';
import { createS3Storage, parseStorageUrl } from './platform/storage-s3.ts';
import type { WechatProvider } from './platform/wechat/wechat-provider.ts';
import { realNameProviderFromConfig } from './providers.ts';

export const VERSION = '0.1.0';

export interface AppDeps {
  config: Config;
  database: Database;
  sms: SmsProvider | ((log: FastifyBaseLogger) => SmsProvider);
  wechat: WechatProvider;
  /** Only the official provider has a callback; it needs the vendor's user lookup. */
  wechatUser?: (openid: string) => Promise<{ unionid?: string }>;
  /** Real-name verification; defaults to the one the configuration names. */
  realName?: RealNameProvider;
  masterKey: Buffer;
  now?: () => Date;
  logger?: boolean | object;
}

const API_PREFIXES = ['/api/', '/accountv2/', '/v1/'];

/** Builds the whole HTTP application from explicit dependencies; tests pass fakes of vendors only. */
export async function buildApp(deps: AppDeps) {
  const { config } = deps;
  const app = Fastify({
    logger: deps.logger ?? { level: config.LOG_LEVEL },
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: false,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializer);
  installErrorHandling(app);
  closeIdleConnectionsWhileClosing(app);
  // Every route as registered, hidden ones included, so a test can walk what the server serves
  // rather than what the contract or the OpenAPI document says it does.
  const routeTable: { methods: string[]; url: string }[] = [];
  app.addHook('onRoute', (route) => {
    routeTable.push({ methods: [route.method].flat(), url: route.url });
  });

  installSecurityHeaders(app, {
    publicUrl: config.PUBLIC_URL,
    frameAncestors: config.FRAME_ANCESTORS,
    apiOrigins: originsOf([config.AGENT_API_BASE, ...Object.values(config.SCENE_HOSTS)]),
  });
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
  const events = createEvents({
    notify: (payload) => deps.database.notify(EVENTS_CHANNEL, payload),
    listen: (onMessage) => deps.database.listen(EVENTS_CHANNEL, onMessage),
    log: app.log,
  });
  await bus.start();
  await events.start();
  const { handles, storage } = composeModules(deps, { bus, events }, app.log);
  const { auth, space } = handles;
  app.decorate('authenticator', { resolveSession: auth.sessions.resolve, roleIn: space.spaceRepo.roleIn });
  const appModules: AppModule[] = Object.values(handles).map((handle) => handle.module);
  for (const module of appModules) await module.routes(app);

  await serveWebApp(app, config.WEB_DIST);
  return Object.assign(app as FastifyInstance, {
    /** Each module's front door, by name: what tests and benchmarks reach past HTTP for. */
    modules: handles,
    /** The same modules as the job runner takes them. */
    appModules,
    platform: { bus, events, storage },
    routeTable,
  });
}

/**
 * Builds every module from explicit dependencies, in dependency order. A module is reached only
 * through its front door (`modules/<domain>/index.ts`); what one module needs from another is
 * passed here, by name.
 */
function composeModules(deps: AppDeps, messages: { bus: InvalidationBus; events: Events }, log: FastifyBaseLogger) {
  const { config } = deps;
  const platform = { db: deps.database.db, ...messages, log, now: deps.now ?? (() => new Date()) };
  const storage = config.STORAGE_URL
    ? createS3Storage(parseStorageUrl(config.STORAGE_URL))
    : createObjectStorage(config.DATA_DIR);
  const sms = typeof deps.sms === 'function' ? deps.sms(log) : deps.sms;
  const publicUrl = config.PUBLIC_URL;
  // In the database, so every process behind a load balancer counts the same hits.
  const rateLimit = createRateLimits(platform);
  const plannerStatistics = createPlannerStatistics(deps.database, log);

  const auth = createAuthModule({
    ...platform,
    config,
    masterKey: deps.masterKey,
    sms,
    rateLimits: rateLimit,
    wechatProvider: deps.wechat,
    wechatUser: deps.wechatUser,
  });
  const space = createSpaceModule({ ...platform, users: auth.users });
  const account = createAccountModule({ auth, space, storage });
  // One audit log, the team module's, which billing and workflows write their changes to as well.
  const audit = createAuditRepo(platform.db);
  const billing = createBillingModule({
    ...platform,
    audit,
    config,
    publicUrl,
    masterKey: deps.masterKey,
    soleProcess: deps.database.traits.soleProcess,
  });
  const team = createTeamModule({ ...platform, space, ledger: billing.ledger, publicUrl, audit });
  const realName = createRealNameModule({
    ...platform,
    provider: deps.realName ?? realNameProviderFromConfig(config),
    masterKey: deps.masterKey,
    publicUrl,
  });
  const modelKey = createModelKeyModule({
    ...platform,
    config,
    masterKey: deps.masterKey,
    charging: billing.charging,
    resolvePlatformModel: billing.resolvePlatformModel,
    platformModelIds: billing.platformModelIds,
  });
  const customBusiness = createCustomBusinessModule({
    ...platform,
    storage,
    operatorPhones: config.OPERATOR_PHONES,
  });
  const media = createMediaModule({
    ...platform,
    dataDir: config.DATA_DIR,
    masterKey: deps.masterKey,
    quotaBytes: config.MEDIA_QUOTA_BYTES,
    s3: config.STORAGE_URL ? parseStorageUrl(config.STORAGE_URL) : undefined,
    tools: findTools({ ffmpeg: config.FFMPEG_PATH, ffprobe: config.FFPROBE_PATH }),
  });
  const knowledge = createKnowledgeModule({
    ...platform,
    config,
    storage,
    modelKey,
    openMediaDocument: media.openDocument,
  });
  // External MCP servers, whose tools agents and workflow nodes call.
  const mcpClient = createMcpClientModule({
    ...platform,
    masterKey: deps.masterKey,
    allowPrivate: config.ALLOW_PRIVATE_MODEL_ENDPOINTS,
  });
  const agent = createAgentModule({
    mcpClient,
    ...platform,
    publicUrl,
    modelKey,
    knowledge,
    soleProcess: deps.database.traits.soleProcess,
    rateLimits: rateLimit,
    limits: {
      apiCallsPerMinute: config.AGENT_API_CALLS_PER_MINUTE,
      shareChat: {
        perVisitor: config.SHARE_CHAT_PER_VISITOR,
        perAddress: config.SHARE_CHAT_PER_ADDRESS,
        windowSeconds: config.SHARE_CHAT_WINDOW_SECONDS,
      },
    },
  });
  const workflow = createWorkflowModule({
    ...platform,
    audit,
    agent,
    config,
    modelKey,
    knowledge,
    mcpClient,
    soleProcess: deps.database.traits.soleProcess,
    rateLimits: rateLimit,
    masterKey: deps.masterKey,
  });
  const chatHistory = createChatHistoryModule({
    ...platform,
    masterKey: deps.masterKey,
    publicUrl,
    rateLimits: rateLimit,
    liveSeconds: config.CHAT_LIVE_SECONDS,
    wecomApiBase: config.WECOM_API_BASE,
    modelKey,
    knowledge,
    storage,
    oneConnection: deps.database.traits.oneConnection,
    noteWrites: plannerStatistics.noteWrites,
  });
  const userProfile = createUserProfileModule({
    ...platform,
    modelKey,
    chatHistory,
    oneConnection: deps.database.traits.oneConnection,
  });
  const mcp = createMcpModule({
    ...platform,
    knowledge,
    workflow,
    agent,
    audit,
    rateLimits: rateLimit,
    version: VERSION,
    callsPerMinute: config.MCP_CALLS_PER_MINUTE,
  });
  const platformInfo = createPlatformInfoModule({
    version: VERSION,
    wechatProvider: deps.wechat.name,
    smsProvider: sms.name,
    agentApiBase: config.AGENT_API_BASE,
    sceneHosts: config.SCENE_HOSTS,
    publicUrl: config.PUBLIC_URL_CONFIGURED ? config.PUBLIC_URL.replace(/\/+$/, '') : '',
  });

  const handles = {
    platformInfo,
    auth,
    space,
    account,
    team,
    billing,
    modelKey,
    customBusiness,
    agent,
    knowledge,
    media,
    workflow,
    chatHistory,
    userProfile,
    mcpClient,
    mcp,
    realName,
    // Not domains, but their jobs are started by the job runner like the modules' jobs.
    rateLimit,
    plannerStatistics,
  };
  return { handles, storage };
}

/** The origins of configured absolute URLs (an empty or relative value is this server). */
function originsOf(urls: string[]) {
  return urls.flatMap((url) => (URL.canParse(url) ? [new URL(url).origin] : []));
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
    // HEAD as GET, without the body: link checkers and uptime monitors ask with HEAD.
    const isPageRead = request.method === 'GET' || request.method === 'HEAD';
    if (isApi || !isPageRead || !hasBuild) return sendError(request, reply, 'ROUTE_NOT_FOUND');
    return reply.type('text/html').sendFile('index.html', { maxAge: 0 });
  });
}
