import type { KeyTestResult, ModelKey, ModelPurpose } from '@athena/contract';
import { and, asc, eq } from 'drizzle-orm';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import { type InvalidationBus, TaggedCache } from '../../platform/cache.ts';
import { decryptSecret, encryptSecret, hmac, isUuid, maskApiKey } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import type { Events } from '../../platform/events.ts';
import { AppError } from '../../platform/http/app-error.ts';
import type { LlmGateway, ResolvedModelKey } from '../../platform/llm/llm-gateway.ts';
import { users } from '../auth/auth.schema.ts';
import { modelKeys } from './model-key.schema.ts';

export type ModelKeyService = ReturnType<typeof createModelKeyService>;
type KeyRow = typeof modelKeys.$inferSelect;

/** How long a draft's test result is remembered for the save that usually follows it. */
const DRAFT_TEST_TTL_MS = 15 * 60_000;
const DRAFT_TEST_LIMIT = 500;

interface KeyFields {
  model_name: string;
  version: string;
  base_url: string;
  api_key: string;
  purpose: ModelPurpose;
}

/**
 * Bring-your-own model keys of a space. Managing them takes `model_key.manage`; any member may
 * use them (the gateway resolves them). The key is stored encrypted and never returned.
 */
export function createModelKeyService(deps: {
  db: Db;
  masterKey: Buffer;
  gateway: LlmGateway;
  bus: InvalidationBus;
  now: () => Date;
  /** A priced platform model by id; a feature's model id that is not a team key may name one. */
  resolvePlatformModel?: (id: string) => Promise<ResolvedModelKey | null>;
  /** `model-key.removed` after a key is deleted: what was made with it goes too (knowledge vectors). */
  events: Events;
  /** ALLOW_PRIVATE_MODEL_ENDPOINTS: told to the key page, which words its hints by it. */
  privateAddressesAllowed: boolean;
}) {
  const { db, bus } = deps;
  // Every chat turn resolves a key; writes below publish `model_keys:<space>`.
  const resolved = new TaggedCache<ResolvedModelKey | null>(60_000);
  bus.subscribe((key) => (key === '*' ? resolved.clear() : resolved.invalidate(key)));
  const changed = (spaceId: string) => bus.publish(`model_keys:${spaceId}`);

  // The add/edit dialog tests the values as typed before they are saved. The server remembers what
  // it answered for those exact values (keyed by an HMAC, never the key itself), so the row shows
  // that result once saved instead of "not tested". In-process only: with several server
  // processes a miss just means "not tested", which is still true of what this process saw.
  const draftTests = new Map<string, { result: KeyTestResult; at: Date }>();
  const draftDigest = (spaceId: string, f: Pick<KeyFields, 'purpose' | 'base_url' | 'version' | 'api_key'>) =>
    hmac(deps.masterKey, JSON.stringify([spaceId, f.purpose, f.base_url, f.version, f.api_key]));
  const rememberDraftTest = (digest: string, result: KeyTestResult) => {
    draftTests.delete(digest);
    draftTests.set(digest, { result, at: deps.now() });
    if (draftTests.size > DRAFT_TEST_LIMIT) draftTests.delete(draftTests.keys().next().value as string);
  };
  /** The test fields to store with a saved key: the draft's result, or none (not tested). */
  const lastTestOf = (digest: string) => {
    const hit = draftTests.get(digest);
    if (!hit || deps.now().getTime() - hit.at.getTime() > DRAFT_TEST_TTL_MS) {
      return { lastTestAt: null, lastTestOk: null, lastTestLatencyMs: null, lastTestErrorKind: null };
    }
    return {
      lastTestAt: hit.at,
      lastTestOk: hit.result.ok,
      lastTestLatencyMs: hit.result.latency_ms,
      lastTestErrorKind: hit.result.error_kind,
    };
  };

  const toModelKey = (row: KeyRow, creator: { id: string; nickname: string }): ModelKey => ({
    id: row.id,
    model_name: row.modelName,
    version: row.version,
    base_url: row.baseUrl,
    api_key_masked: row.apiKeyMasked,
    purpose: row.purpose as ModelPurpose,
    is_default: row.isDefault,
    created_by: { id: creator.id, nickname: creator.nickname },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    last_test: row.lastTestAt
      ? {
          ok: row.lastTestOk ?? false,
          latency_ms: row.lastTestLatencyMs,
          error_kind: row.lastTestErrorKind,
          at: row.lastTestAt.toISOString(),
        }
      : null,
  });

  async function findRow(spaceId: string, id: string) {
    if (!isUuid(id)) throw new AppError('NOT_FOUND');
    const [row] = await db
      .select({ key: modelKeys, creator: { id: users.id, nickname: users.nickname } })
      .from(modelKeys)
      .innerJoin(users, eq(users.id, modelKeys.createdBy))
      .where(and(eq(modelKeys.id, id), eq(modelKeys.spaceId, spaceId)))
      .limit(1);
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  const resolve = (row: KeyRow): ResolvedModelKey => ({
    id: row.id,
    baseUrl: row.baseUrl,
    apiKey: decryptSecret(deps.masterKey, row.apiKeyEncrypted),
    version: row.version,
    purpose: row.purpose as ModelPurpose,
  });

  return {
    async list(ctx: AuthContext, purpose?: ModelPurpose) {
      const { id: spaceId } = authorize(ctx, 'member.view');
      const conditions = [eq(modelKeys.spaceId, spaceId)];
      if (purpose) conditions.push(eq(modelKeys.purpose, purpose));
      const rows = await db
        .select({ key: modelKeys, creator: { id: users.id, nickname: users.nickname } })
        .from(modelKeys)
        .innerJoin(users, eq(users.id, modelKeys.createdBy))
        .where(and(...conditions))
        .orderBy(asc(modelKeys.purpose), asc(modelKeys.createdAt));
      return {
        items: rows.map((row) => toModelKey(row.key, row.creator)),
        private_addresses_allowed: deps.privateAddressesAllowed,
      };
    },

    async create(ctx: AuthContext, fields: KeyFields) {
      const { id: spaceId } = authorize(ctx, 'model_key.manage');
      const id = await db.transaction(async (tx) => {
        // The first key of a purpose becomes its default, so it works without another step.
        const [existing] = await tx
          .select({ id: modelKeys.id })
          .from(modelKeys)
          .where(and(eq(modelKeys.spaceId, spaceId), eq(modelKeys.purpose, fields.purpose)))
          .limit(1);
        const [row] = await tx
          .insert(modelKeys)
          .values({
            spaceId,
            modelName: fields.model_name,
            version: fields.version,
            baseUrl: fields.base_url,
            apiKeyEncrypted: encryptSecret(deps.masterKey, fields.api_key),
            apiKeyMasked: maskApiKey(fields.api_key),
            purpose: fields.purpose,
            isDefault: !existing,
            createdBy: ctx.userId,
            ...lastTestOf(draftDigest(spaceId, fields)),
          })
          .returning({ id: modelKeys.id });
        return row.id;
      });
      await changed(spaceId);
      const row = await findRow(spaceId, id);
      return toModelKey(row.key, row.creator);
    },

    async update(ctx: AuthContext, id: string, fields: Partial<KeyFields>) {
      const { id: spaceId } = authorize(ctx, 'model_key.manage');
      const { key: before } = await findRow(spaceId, id);
      // Moving a key to another purpose must not leave that purpose with two defaults.
      const purposeChanged = fields.purpose !== undefined && fields.purpose !== before.purpose;
      const [other] = purposeChanged
        ? await db
            .select({ id: modelKeys.id })
            .from(modelKeys)
            .where(and(eq(modelKeys.spaceId, spaceId), eq(modelKeys.purpose, fields.purpose!)))
            .limit(1)
        : [];
      // What a test checks (address, model, key, purpose) changed: the old result no longer says
      // anything about this key, so it takes the dialog's test of the new values, or none.
      const testedChanged =
        purposeChanged ||
        (fields.base_url !== undefined && fields.base_url !== before.baseUrl) ||
        (fields.version !== undefined && fields.version !== before.version) ||
        Boolean(fields.api_key);
      const after = () => ({
        purpose: fields.purpose ?? (before.purpose as ModelPurpose),
        base_url: fields.base_url ?? before.baseUrl,
        version: fields.version ?? before.version,
        api_key: fields.api_key || decryptSecret(deps.masterKey, before.apiKeyEncrypted),
      });
      await db
        .update(modelKeys)
        .set({
          ...(testedChanged ? lastTestOf(draftDigest(spaceId, after())) : {}),
          ...(purposeChanged ? { isDefault: !other } : {}),
          modelName: fields.model_name,
          version: fields.version,
          baseUrl: fields.base_url,
          purpose: fields.purpose,
          ...(fields.api_key
            ? {
                apiKeyEncrypted: encryptSecret(deps.masterKey, fields.api_key),
                apiKeyMasked: maskApiKey(fields.api_key),
              }
            : {}),
          updatedAt: deps.now(),
        })
        .where(and(eq(modelKeys.id, id), eq(modelKeys.spaceId, spaceId)));
      await changed(spaceId);
      const row = await findRow(spaceId, id);
      return toModelKey(row.key, row.creator);
    },

    async remove(ctx: AuthContext, id: string) {
      const { id: spaceId } = authorize(ctx, 'model_key.manage');
      await findRow(spaceId, id);
      await db.delete(modelKeys).where(and(eq(modelKeys.id, id), eq(modelKeys.spaceId, spaceId)));
      await changed(spaceId);
      await deps.events.emit('model-key.removed', { spaceId, keyId: id });
    },

    async setDefault(ctx: AuthContext, id: string) {
      const { id: spaceId } = authorize(ctx, 'model_key.manage');
      const { key } = await findRow(spaceId, id);
      await db.transaction(async (tx) => {
        await tx
          .update(modelKeys)
          .set({ isDefault: false })
          .where(and(eq(modelKeys.spaceId, spaceId), eq(modelKeys.purpose, key.purpose)));
        await tx.update(modelKeys).set({ isDefault: true }).where(eq(modelKeys.id, id));
      });
      await changed(spaceId);
    },

    async test(ctx: AuthContext, id: string): Promise<KeyTestResult> {
      const { id: spaceId } = authorize(ctx, 'model_key.manage');
      const { key } = await findRow(spaceId, id);
      const result = await deps.gateway.testKey(resolve(key), {
        spaceId,
        userId: ctx.userId,
        source: 'model_key.test',
      });
      await db
        .update(modelKeys)
        .set({
          lastTestAt: deps.now(),
          lastTestOk: result.ok,
          lastTestLatencyMs: result.latency_ms,
          lastTestErrorKind: result.error_kind,
        })
        .where(eq(modelKeys.id, id));
      return result;
    },

    async testDraft(ctx: AuthContext, fields: KeyFields): Promise<KeyTestResult> {
      const { id: spaceId } = authorize(ctx, 'model_key.manage');
      const result = await deps.gateway.testKey(
        {
          id: null,
          baseUrl: fields.base_url,
          apiKey: fields.api_key,
          version: fields.version,
          purpose: fields.purpose,
        },
        { spaceId, userId: ctx.userId, source: 'model_key.test' },
      );
      rememberDraftTest(draftDigest(spaceId, fields), result);
      return result;
    },

    /** For features that call models: a key of this space by id, or the default for a purpose. */
    async resolveForUse(spaceId: string, selector: { id?: string; purpose: ModelPurpose }) {
      const cacheKey = `${spaceId}:${selector.purpose}:${selector.id ?? 'default'}`;
      const cached = resolved.get(cacheKey);
      if (cached !== undefined) return cached;
      const conditions = [eq(modelKeys.spaceId, spaceId), eq(modelKeys.purpose, selector.purpose)];
      if (selector.id) {
        if (!isUuid(selector.id)) return null;
        conditions.push(eq(modelKeys.id, selector.id));
      } else {
        conditions.push(eq(modelKeys.isDefault, true));
      }
      const [row] = await db
        .select()
        .from(modelKeys)
        .where(and(...conditions))
        .limit(1);
      if (!row && selector.id && selector.purpose === 'chat' && deps.resolvePlatformModel) {
        // Not one of the team's keys: one of the platform's models (cached by the catalogue).
        return deps.resolvePlatformModel(selector.id);
      }
      const key = row ? resolve(row) : null;
      resolved.set(cacheKey, key, [`model_keys:${spaceId}`]);
      return key;
    },
  };
}
