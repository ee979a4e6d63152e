import type { AppModule, PlatformDeps } from '../../platform/module.ts';
import type { RateLimits } from '../../platform/rate-limit/rate-limits.ts';
import type { ObjectStorage } from '../../platform/storage.ts';
import type { KnowledgeModule } from '../knowledge/index.ts';
import type { ModelKeyModule } from '../model-key/index.ts';
import { createAfterStore } from './after-store.ts';
import { createAiAnswer } from './ai-answer.ts';
import { createAutoReply } from './auto-reply.ts';
import { createChatHistoryRepo } from './chat-history.repo.ts';
import { registerChatHistoryRoutes, registerIngestRoute, type SignedIngestRoute } from './chat-history.routes.ts';
import { createChatHistoryService } from './chat-history.service.ts';
import { createChatLive } from './chat-live.ts';
import { createChatReplyService } from './chat-reply.service.ts';
import { tuningFor } from './conversation-list.query.ts';
import { createIngestService } from './ingest.service.ts';
import { registerMediaRoute } from './media.routes.ts';
import { createMediaUrls } from './media-url.ts';
import { createReplySender } from './reply-sender.ts';
import { createSceneSettingsService } from './scene-settings.service.ts';
import { createVoiceTranscoder } from './voice-transcoder.ts';
import { registerWecomAccountRoutes, registerWecomCallback } from './wecom.routes.ts';
import { createWecomAccountService } from './wecom-account.service.ts';
import { createWecomClients } from './wecom-clients.ts';
import { createWecomMedia } from './wecom-media.ts';
import { createWecomPuller } from './wecom-pull.ts';

/**
 * Chat history of the customer-service scenes (docs/chat-history.md): messages arrive through the
 * signed ingest API (and WeCom customer service), are stored once each, and are read with filters.
 */
export function createChatHistoryModule(
  deps: PlatformDeps & {
    masterKey: Buffer;
    publicUrl: string;
    rateLimits: RateLimits;
    liveSeconds: number;
    /** WeCom's API (https://qyapi.weixin.qq.com; a local fake in tests). */
    wecomApiBase: string;
    modelKey: ModelKeyModule;
    knowledge: KnowledgeModule;
    storage: ObjectStorage;
    /** The database runs one statement at a time (EngineTraits): work that holds it long goes one piece at a time. */
    oneConnection: boolean;
    /** Tells the embedded database's maintenance how many rows of a table were added or updated. */
    noteWrites: (table: string, rows: number, kind?: 'inserts' | 'updates') => void;
  },
) {
  const { db, now } = deps;
  const repo = createChatHistoryRepo(db);
  const mediaUrls = createMediaUrls(deps.masterKey, now);
  const history = createChatHistoryService({
    db,
    repo,
    now,
    mediaUrlOf: mediaUrls.urlOf,
    tuning: tuningFor(deps.oneConnection),
  });
  const settings = createSceneSettingsService({ db, masterKey: deps.masterKey, publicUrl: deps.publicUrl, now });
  const live = createChatLive(deps.events);
  const announce = (spaceId: string, sceneId: number, conversationIds: number[]) =>
    void live.announce(spaceId, sceneId, conversationIds).catch((error) => {
      deps.log.warn({ err: error }, 'chat live notice failed');
    });
  const afterStore = createAfterStore(deps);
  const signedRoutes: SignedIngestRoute[] = [];
  const ingest = createIngestService({
    db,
    masterKey: deps.masterKey,
    now,
    onStored: async (scene, result) => {
      await afterStore(scene, result);
      announce(scene.spaceId, scene.sceneId, result.conversationIds);
    },
    concurrentBatches: deps.oneConnection ? 1 : 4,
  });
  const wecomApi = { db, masterKey: deps.masterKey, apiBase: deps.wecomApiBase };
  const clients = createWecomClients({ ...wecomApi, bus: deps.bus });
  const wecomAccounts = createWecomAccountService({ ...wecomApi, publicUrl: deps.publicUrl, clients });
  const sender = createReplySender({ db, clients, now, log: deps.log, onChanged: announce });
  const ai = createAiAnswer({
    db,
    modelKeys: deps.modelKey.modelKeys,
    gateway: deps.modelKey.gateway,
    retrieval: deps.knowledge.retrieval,
  });
  const autoReply = createAutoReply({ db, sender, ai, settings, clients, now, log: deps.log, onChanged: announce });
  const replies = createChatReplyService({ db, repo, sender, ai, settings, mediaUrlOf: mediaUrls.urlOf });
  const voice = createVoiceTranscoder();
  const media = createWecomMedia({
    db,
    clients,
    storage: deps.storage,
    now,
    log: deps.log,
    onChanged: announce,
    voice,
  });
  const puller = createWecomPuller({
    db,
    clients,
    now,
    log: deps.log,
    onChanged: announce,
    autoReply,
    media,
    afterStore,
  });
  const module: AppModule = {
    name: 'chat-history',
    routes: async (app) => {
      registerChatHistoryRoutes(app, { history, settings, replies, live, liveSeconds: deps.liveSeconds });
      await registerIngestRoute(app, { ingest, rateLimits: deps.rateLimits, signedRoutes });
      registerWecomAccountRoutes(app, wecomAccounts);
      await registerWecomCallback(app, { db, masterKey: deps.masterKey, now, puller, clients });
      registerMediaRoute(app, { db, storage: deps.storage, urls: mediaUrls });
      app.addHook('onClose', () => voice.close());
    },
    schedules: [
      { name: 'chat-ingest-signature-purge', cron: '*/10 * * * *', run: () => ingest.forgetExpiredSignatures() },
      { name: 'chat-media-sweep', cron: '*/5 * * * *', run: () => media.sweep() },
    ],
  };
  return {
    module,
    history,
    ingest,
    puller,
    autoReply,
    media,
    /** Adds a signed endpoint under every scene's ingest URL (registered with the routes). */
    addSignedIngestRoute: (route: SignedIngestRoute) => void signedRoutes.push(route),
    /** A scene's WeCom client, for features that send on the scene's behalf (satisfaction). */
    wecomClients: clients,
    /** A scene's reply settings (its agent), for features that act for the scene. */
    replySettingsOf: settings.replyOf,
    /** Sends a message of ours into a conversation (idempotent on our msgid, inside WeCom's window). */
    replySender: sender,
  };
}

export type ChatHistoryModule = ReturnType<typeof createChatHistoryModule>;

/** The message id up to which every message is committed, for readers that go in id order (message-store.ts). */
export { settledMessageId } from './message-store.ts';
/** Chat history's search terms (CJK pairs, word prefixes), which customer search reads the same way. */
export { keywordQueryOf, searchTermsOf } from './search-terms.ts';
