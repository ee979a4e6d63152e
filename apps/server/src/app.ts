import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { registerAccountRoutes } from './modules/account/account.routes.ts';
import { createAccountService } from './modules/account/account.service.ts';
import { registerAgentRoutes } from './modules/agent/agent.routes.ts';
import { createAgentService } from './modules/agent/agent.service.ts';
import { createChatService } from './modules/agent/chat.service.ts';
import { type FindSources, readableSegment } from './modules/agent/grounding.ts';
import { registerOpenAICompatRoutes } from './modules/agent/openai-compat.routes.ts';
import { createPublishService } from './modules/agent/publish.service.ts';
import { registerShareRoutes } from './modules/agent/share.routes.ts';
import { createAccountRepo } from './modules/auth/account.repo.ts';
import { registerAuthRoutes } from './modules/auth/auth.routes.ts';
import { createSessionService } from './modules/auth/session.service.ts';
import { createSignInService } from './modules/auth/sign-in.service.ts';
import { createSmsCodeService } from './modules/auth/sms-code.service.ts';
import { registerWechatCallback } from './modules/auth/wechat-callback.routes.ts';
import { createWechatLoginService } from './modules/auth/wechat-login.service.ts';
import { createAttachmentService } from './modules/custom-business/attachments.ts';
import { createCustomBusinessRepo } from './modules/custom-business/custom-business.repo.ts';
import { registerCustomBusinessRoutes } from './modules/custom-business/custom-business.routes.ts';
import { createCustomBusinessService } from './modules/custom-business/custom-business.service.ts';
import { createKnowledgeGroupService } from './modules/knowledge/group.service.ts';
import { createIndexQueue } from './modules/knowledge/index-queue.ts';
import { createIndexer } from './modules/knowledge/indexer.ts';
import { createKnowledgeRepo } from './modules/knowledge/knowledge.repo.ts';
import { registerKnowledgeRoutes } from './modules/knowledge/knowledge.routes.ts';
import { createKnowledgeBaseService } from './modules/knowledge/knowledge-base.service.ts';
import { createRetrievalService } from './modules/knowledge/retrieval.service.ts';
import { createSegmentService } from './modules/knowledge/segment.service.ts';
import { createUnitService } from './modules/knowledge/unit.service.ts';
import { createVectorStore, type VectorStore } from './modules/knowledge/vectors.ts';
import { registerModelKeyRoutes } from './modules/model-key/model-key.routes.ts';
import { createModelKeyService } from './modules/model-key/model-key.service.ts';
import { registerPlatformRoutes } from './modules/platform/platform.routes.ts';
import { createRealNameRepo } from './modules/realname/realname.repo.ts';
import { registerRealNameRoutes } from './modules/realname/realname.routes.ts';
import { createRealNameService } from './modules/realname/realname.service.ts';
import { createSpaceRepo } from './modules/space/space.repo.ts';
import { registerSpaceRoutes } from './modules/space/space.routes.ts';
import { createSpaceService } from './modules/space/space.service.ts';
import { createAuditRepo } from './modules/team/audit.repo.ts';
import { createInviteService } from './modules/team/invite.service.ts';
import { createMemberRepo } from './modules/team/member.repo.ts';
import { createMemberService } from './modules/team/member.service.ts';
import { registerTeamRoutes } from './modules/team/team.routes.ts';
import { createTeamService } from './modules/team/team.service.ts';
import { createInvalidationBus, INVALIDATION_CHANNEL, type InvalidationBus } from './platform/cache.ts';
import type { Database } from './platform/db/database.ts';
import { installErrorHandling, sendError } from './platform/http/error-handler.ts';
import { createLlmGateway } from './platform/llm/llm-gateway.ts';
import { createOutboundFetch } from './platform/llm/outbound-guard.ts';
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
  registerAccountRoutes(app, services);
  registerTeamRoutes(app, services);
  registerModelKeyRoutes(app, services.modelKeys);
  registerCustomBusinessRoutes(app, {
    customBusiness: services.customBusiness,
    attachments: services.customBusinessAttachments,
  });
  registerAgentRoutes(app, services);
  registerKnowledgeRoutes(app, services);
  registerShareRoutes(app, services);
  registerOpenAICompatRoutes(app, { ...services, gateway: services.llm });
  registerRealNameRoutes(app, { realName: services.realName, devProvider: services.realNameProvider.name === 'dev' });

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
  const storage = config.STORAGE_URL
    ? createS3Storage(parseStorageUrl(config.STORAGE_URL))
    : createObjectStorage(config.DATA_DIR);
  const account = createAccountService({ accounts, sessions, smsCodes, wechat, spaceRepo, storage });
  const audit = createAuditRepo(db);
  const memberRepo = createMemberRepo(db);
  const teamDeps = { db, bus, spaces: spaceRepo, members: memberRepo, audit };
  const teams = createTeamService({ ...teamDeps, now });
  const members = createMemberService(teamDeps);
  const invites = createInviteService({ ...teamDeps, publicUrl: config.PUBLIC_URL, now });
  const llm = createLlmGateway({
    db,
    fetch: createOutboundFetch({ allowPrivate: config.ALLOW_PRIVATE_MODEL_ENDPOINTS }),
    log,
    testTimeoutMs: config.MODEL_TEST_TIMEOUT_MS,
  });
  const knowledgeVectors = createVectorStore(db, { efSearch: config.KNOWLEDGE_EF_SEARCH });
  const modelKeys = createModelKeyService({
    db,
    masterKey: deps.masterKey,
    gateway: llm,
    bus,
    now,
    onRemoved: (keyId) => knowledgeVectors.deleteForKey(keyId),
  });
  const customBusinessRepo = createCustomBusinessRepo(db);
  const customBusiness = createCustomBusinessService({
    db,
    repo: customBusinessRepo,
    operatorPhones: config.OPERATOR_PHONES,
    now,
  });
  const customBusinessAttachments = createAttachmentService({
    repo: customBusinessRepo,
    storage,
    isOperator: customBusiness.isOperator,
    now,
  });
  const agents = createAgentService({ db, bus, publicUrl: config.PUBLIC_URL, now });
  const knowledge = createKnowledgeServices({
    db,
    bus,
    log,
    config,
    storage,
    gateway: llm,
    modelKeys,
    vectors: knowledgeVectors,
  });
  const findSources: FindSources = async (params) =>
    (await knowledge.knowledgeRetrieval.retrieveForAgent(params)).map((hit) => ({
      knowledgeId: hit.knowledgeId,
      unitId: hit.unitId,
      segmentId: hit.segment.id,
      fileName: hit.fileName,
      text: readableSegment(hit.segment),
      score: hit.score,
    }));
  const chat = createChatService({ db, gateway: llm, log, now, findSources });
  const publish = createPublishService({ db, agents, now });
  const realNameProvider = deps.realName ?? realNameProviderFromConfig(config);
  const realName = createRealNameService({
    repo: createRealNameRepo(db),
    provider: realNameProvider,
    masterKey: deps.masterKey,
    publicUrl: config.PUBLIC_URL,
    bus,
    now,
    log,
  });
  return {
    bus,
    smsProvider,
    accounts,
    spaceRepo,
    sessions,
    smsCodes,
    wechat,
    signIn,
    spaces,
    storage,
    account,
    audit,
    teams,
    members,
    invites,
    realNameProvider,
    realName,
    llm,
    modelKeys,
    customBusiness,
    customBusinessAttachments,
    agents,
    chat,
    publish,
    findSources,
    ...knowledge,
  };
}

/** Knowledge bases: the queue is attached to pg-boss when the indexer starts (main.ts). */
function createKnowledgeServices(deps: {
  db: Database['db'];
  bus: InvalidationBus;
  log: FastifyBaseLogger;
  config: Config;
  storage: ReturnType<typeof createObjectStorage>;
  gateway: ReturnType<typeof createLlmGateway>;
  modelKeys: ReturnType<typeof createModelKeyService>;
  vectors: VectorStore;
}) {
  const { db, bus, log, storage, gateway, modelKeys, vectors } = deps;
  const repo = createKnowledgeRepo({ db, vectors });
  const knowledgeQueue = createIndexQueue({ db });
  const knowledgeGroups = createKnowledgeGroupService({ db });
  const common = { db, repo, vectors, bus, log, storage, queue: knowledgeQueue };
  return {
    knowledgeQueue,
    knowledgeGroups,
    knowledgeBases: createKnowledgeBaseService({ ...common, groups: knowledgeGroups }),
    knowledgeUnits: createUnitService(common),
    knowledgeSegments: createSegmentService({ db, repo, vectors, gateway, modelKeys }),
    knowledgeRetrieval: createRetrievalService({ db, repo, vectors, gateway, modelKeys, log }),
    knowledgeIndexer: createIndexer({
      ...common,
      gateway,
      modelKeys,
      leaseSeconds: deps.config.KNOWLEDGE_LEASE_SECONDS,
      embedBatch: deps.config.KNOWLEDGE_EMBED_BATCH,
    }),
  };
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
