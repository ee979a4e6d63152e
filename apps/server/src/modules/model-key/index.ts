import type { Config } from '../../config.ts';
import type { Reader } from '../../platform/db/owned-rows.ts';
import { createLlmGateway, type ResolvedModelKey } from '../../platform/llm/llm-gateway.ts';
import { createOutboundFetch } from '../../platform/llm/outbound-guard.ts';
import type { UsageCharging } from '../../platform/llm/pricing.ts';
import type { AppModule, PlatformDeps } from '../../platform/module.ts';
import { registerModelKeyRoutes } from './model-key.routes.ts';
import { createModelKeyService } from './model-key.service.ts';
import { createModelKeyQueries } from './queries.ts';
import { createUsageRepo } from './usage.repo.ts';

/**
 * The team's own model keys and the gateway that calls models with them; every call's usage is
 * stored here. Deleting a key emits `model-key.removed`, for modules that keep data made with it.
 */
export function createModelKeyModule(
  deps: PlatformDeps & {
    config: Config;
    masterKey: Buffer;
    /** Billing's side of platform-model calls: holds and charges. */
    charging: UsageCharging;
    /** A platform model by id (the billing catalogue), for features that name one instead of a key. */
    resolvePlatformModel: (id: string) => Promise<ResolvedModelKey | null>;
    /** The enabled platform models' ids (billing's catalogue). */
    platformModelIds: (reader?: Reader) => Promise<string[]>;
  },
) {
  const { db, bus, log, now, config } = deps;
  const usage = createUsageRepo(db);
  const gateway = createLlmGateway({
    recordUsage: usage.record,
    charging: deps.charging,
    fetch: createOutboundFetch({ allowPrivate: config.ALLOW_PRIVATE_MODEL_ENDPOINTS }),
    log,
    testTimeoutMs: config.MODEL_TEST_TIMEOUT_MS,
  });
  const modelKeys = createModelKeyService({
    db,
    masterKey: deps.masterKey,
    gateway,
    bus,
    now,
    resolvePlatformModel: deps.resolvePlatformModel,
    privateAddressesAllowed: config.ALLOW_PRIVATE_MODEL_ENDPOINTS,
    events: deps.events,
  });
  const module: AppModule = { name: 'model-key', routes: (app) => registerModelKeyRoutes(app, modelKeys) };
  return {
    module,
    modelKeys,
    gateway,
    /** What other modules may read of the models a team can name. */
    queries: createModelKeyQueries({ db, platformModelIds: deps.platformModelIds }),
  };
}

export type ModelKeyModule = ReturnType<typeof createModelKeyModule>;
export type { ModelKeyQueries } from './queries.ts';
