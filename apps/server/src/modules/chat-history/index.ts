import type { AppModule, PlatformDeps } from '../../platform/module.ts';
import type { RateLimits } from '../../platform/rate-limit/rate-limits.ts';
import { createChatHistoryRepo } from './chat-history.repo.ts';
import { registerChatHistoryRoutes, registerIngestRoute } from './chat-history.routes.ts';
import { createChatHistoryService } from './chat-history.service.ts';
import { createChatLive } from './chat-live.ts';
import { createIngestService } from './ingest.service.ts';
import { createSceneSettingsService } from './scene-settings.service.ts';

/**
 * Chat history of the customer-service scenes (docs/chat-history.md): messages arrive through the
 * signed ingest API (and WeCom customer service), are stored once each, and are read with filters.
 */
export function createChatHistoryModule(
  deps: PlatformDeps & { masterKey: Buffer; publicUrl: string; rateLimits: RateLimits; liveSeconds: number },
) {
  const { db, now } = deps;
  const repo = createChatHistoryRepo(db);
  const history = createChatHistoryService({ db, repo, now });
  const settings = createSceneSettingsService({ db, masterKey: deps.masterKey, publicUrl: deps.publicUrl, now });
  const live = createChatLive(deps.bus);
  const ingest = createIngestService({
    db,
    masterKey: deps.masterKey,
    now,
    onStored: (spaceId, sceneId, result) =>
      void live.announce(spaceId, sceneId, result.conversationIds).catch((error) => {
        deps.log.warn({ err: error }, 'chat live notice failed');
      }),
  });
  const module: AppModule = {
    name: 'chat-history',
    routes: async (app) => {
      registerChatHistoryRoutes(app, { history, settings, live, liveSeconds: deps.liveSeconds });
      await registerIngestRoute(app, { ingest, rateLimits: deps.rateLimits });
    },
    schedules: [
      { name: 'chat-ingest-signature-purge', cron: '*/10 * * * *', run: () => ingest.forgetExpiredSignatures() },
    ],
  };
  return { module, history, ingest };
}

export type ChatHistoryModule = ReturnType<typeof createChatHistoryModule>;
