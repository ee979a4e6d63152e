import type { PlatformModel } from '@athena/contract';
import { asc, eq } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth-guard.ts';
import type { InvalidationBus } from '../../platform/cache.ts';
import { TaggedCache } from '../../platform/cache.ts';
import { decryptSecret, encryptSecret, isUuid, maskApiKey } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import type { Reader } from '../../platform/db/owned-rows.ts';
import { AppError } from '../../platform/http/app-error.ts';
import type { ResolvedModelKey } from '../../platform/llm/llm-gateway.ts';
import type { OperatorCheck } from './operators.ts';
import { platformModels } from './usage-charge.schema.ts';

type Row = typeof platformModels.$inferSelect;
interface Fields {
  model_name: string;
  version: string;
  base_url: string;
  api_key?: string;
  input_price: number;
  output_price: number;
  enabled: boolean;
}

const CACHE_TAG = 'platform_models';

/**
 * The models the platform provides (docs/billing.md, "Usage"): operators add them with the
 * platform's own key and a price per 1 000 tokens; every team may pick an enabled one where it
 * picks a model, and its calls are charged to the team's balance.
 */
export function createPlatformModelService(deps: {
  db: Db;
  bus: InvalidationBus;
  masterKey: Buffer;
  operators: OperatorCheck;
  now: () => Date;
}) {
  const { db } = deps;
  const resolved = new TaggedCache<ResolvedModelKey | null>(60_000);
  deps.bus.subscribe((key) => (key === '*' ? resolved.clear() : resolved.invalidate(key)));

  const present = (row: Row, forOperator: boolean): PlatformModel => ({
    id: row.id,
    model_name: row.modelName,
    version: row.version,
    purpose: row.purpose,
    input_price: row.inputPrice,
    output_price: row.outputPrice,
    enabled: row.enabled,
    base_url: forOperator ? row.baseUrl : null,
    api_key_masked: forOperator ? row.apiKeyMasked : null,
  });

  const columns = (fields: Fields) => ({
    modelName: fields.model_name,
    version: fields.version,
    baseUrl: fields.base_url,
    inputPrice: fields.input_price,
    outputPrice: fields.output_price,
    enabled: fields.enabled,
    ...(fields.api_key ? sealed(fields.api_key) : {}),
  });
  const sealed = (apiKey: string) => ({
    apiKeyEncrypted: encryptSecret(deps.masterKey, apiKey),
    apiKeyMasked: maskApiKey(apiKey),
  });

  return {
    /** Every member sees the enabled models and their prices; operators see all, with endpoints. */
    async list(ctx: AuthContext) {
      const isOperator = await deps.operators.isOperator(ctx.userId);
      const rows = await db.select().from(platformModels).orderBy(asc(platformModels.createdAt));
      return {
        items: rows.filter((row) => isOperator || row.enabled).map((row) => present(row, isOperator)),
        is_operator: isOperator,
      };
    },

    async create(ctx: AuthContext, fields: Fields & { api_key: string }) {
      await deps.operators.require(ctx);
      const [row] = await db
        .insert(platformModels)
        .values({ ...columns(fields), ...sealed(fields.api_key) })
        .returning();
      await deps.bus.publish(CACHE_TAG);
      return present(row, true);
    },

    async update(ctx: AuthContext, id: string, fields: Fields) {
      await deps.operators.require(ctx);
      if (!isUuid(id)) throw new AppError('PLATFORM_MODEL_NOT_FOUND');
      const [row] = await db
        .update(platformModels)
        .set({ ...columns(fields), updatedAt: deps.now() })
        .where(eq(platformModels.id, id))
        .returning();
      if (!row) throw new AppError('PLATFORM_MODEL_NOT_FOUND');
      await deps.bus.publish(CACHE_TAG);
      return present(row, true);
    },

    /** The ids of the enabled platform models, which any team may name where it names a model key. */
    async enabledIds(reader: Reader = db): Promise<string[]> {
      const rows = await reader
        .select({ id: platformModels.id })
        .from(platformModels)
        .where(eq(platformModels.enabled, true));
      return rows.map((row) => row.id);
    },

    /** For the gateway: an enabled platform model by id, with its key and prices; null otherwise. */
    async resolve(id: string): Promise<ResolvedModelKey | null> {
      if (!isUuid(id)) return null;
      const cached = resolved.get(id);
      if (cached !== undefined) return cached;
      const [row] = await db.select().from(platformModels).where(eq(platformModels.id, id));
      const key: ResolvedModelKey | null =
        row?.enabled === true
          ? {
              id: row.id,
              baseUrl: row.baseUrl,
              apiKey: decryptSecret(deps.masterKey, row.apiKeyEncrypted),
              version: row.version,
              purpose: row.purpose,
              pricing: { platformModelId: row.id, inputPrice: row.inputPrice, outputPrice: row.outputPrice },
            }
          : null;
      resolved.set(id, key, [CACHE_TAG]);
      return key;
    },
  };
}

export type PlatformModelService = ReturnType<typeof createPlatformModelService>;
