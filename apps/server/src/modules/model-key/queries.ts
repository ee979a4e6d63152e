import { and, eq, inArray } from 'drizzle-orm';
import { isUuid } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import type { Reader } from '../../platform/db/owned-rows.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { modelKeys } from './model-key.schema.ts';

/**
 * What other modules may read of the models a team can name (front door: `modelKey.queries`): its
 * own keys, and the platform's enabled models (billing's, passed in), whose calls are charged to
 * the team's balance.
 */
export function createModelKeyQueries(deps: { db: Db; platformModelIds: (reader?: Reader) => Promise<string[]> }) {
  const { db } = deps;
  return {
    /** The models a chat node may name (the team's chat keys, the enabled platform models), and whether the team has a default chat key. */
    async chatModels(spaceId: string, reader: Reader = db) {
      const keys = await reader
        .select({ id: modelKeys.id, isDefault: modelKeys.isDefault })
        .from(modelKeys)
        .where(and(eq(modelKeys.spaceId, spaceId), eq(modelKeys.purpose, 'chat')));
      const platform = await deps.platformModelIds(reader);
      return {
        ids: new Set([...keys.map((key) => key.id), ...platform]),
        hasDefault: keys.some((key) => key.isDefault),
      };
    },

    /** Whether `id` is one of the team's keys (any purpose) or an enabled platform model. */
    async isUsableModel(spaceId: string, id: string, reader: Reader = db) {
      if (!isUuid(id)) return false;
      const [key] = await reader
        .select({ id: modelKeys.id })
        .from(modelKeys)
        .where(and(eq(modelKeys.id, id), eq(modelKeys.spaceId, spaceId)))
        .limit(1);
      return Boolean(key) || (await deps.platformModelIds(reader)).includes(id);
    },

    /**
     * An `embedding` key of this team: the one requested, or (undefined) the team's default, or
     * none (null). A requested key that is not the team's embedding key is NO_EMBEDDING_MODEL.
     */
    async embeddingKeyFor(spaceId: string, requested: string | null | undefined) {
      if (requested === null) return null;
      const conditions = [eq(modelKeys.spaceId, spaceId), eq(modelKeys.purpose, 'embedding')];
      if (requested === undefined) conditions.push(eq(modelKeys.isDefault, true));
      else if (isUuid(requested)) conditions.push(eq(modelKeys.id, requested));
      else throw new AppError('NO_EMBEDDING_MODEL');
      const [row] = await db
        .select({ id: modelKeys.id })
        .from(modelKeys)
        .where(and(...conditions))
        .limit(1);
      if (!row && requested !== undefined) throw new AppError('NO_EMBEDDING_MODEL');
      return row?.id ?? null;
    },

    /** "model name · version" of these keys, by id (keys gone are left out). */
    async keyLabels(ids: string[]) {
      const wanted = [...new Set(ids)].filter(isUuid);
      const labels = new Map<string, string>();
      if (wanted.length === 0) return labels;
      const rows = await db
        .select({ id: modelKeys.id, name: modelKeys.modelName, version: modelKeys.version })
        .from(modelKeys)
        .where(inArray(modelKeys.id, wanted));
      for (const row of rows) labels.set(row.id, `${row.name} · ${row.version}`);
      return labels;
    },
  };
}

export type ModelKeyQueries = ReturnType<typeof createModelKeyQueries>;
