import { and, asc, count, eq, max, sql } from 'drizzle-orm';
import { isUuid } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { hasPgCode, type Tx } from '../../platform/db/sql.ts';
import { AppError } from '../../platform/http/app-error.ts';
import type { ProfileScope } from './profile-scope.ts';
import { profileFields } from './user-profile.schema.ts';

export type FieldRow = typeof profileFields.$inferSelect;
export type FieldSettings = Pick<
  FieldRow,
  'name' | 'options' | 'required' | 'aiExtract' | 'aiOverwrite' | 'description'
>;

/** PostgreSQL unique_violation, however the driver wraps it. */
export const isUniqueViolation = (error: unknown) => hasPgCode(error, '23505');

/** A scene's profile fields; every lookup inside the caller's space and scene. */
export function createFieldRepo(db: Db) {
  const inScope = (scope: ProfileScope) =>
    and(eq(profileFields.spaceId, scope.spaceId), eq(profileFields.sceneId, scope.sceneId));

  return {
    list: (scope: ProfileScope, tx: Tx = db) =>
      tx
        .select()
        .from(profileFields)
        .where(inScope(scope))
        .orderBy(asc(profileFields.position), asc(profileFields.createdAt)),

    /** The field when it is in the scope; NOT_FOUND otherwise (a malformed id too). */
    async find(scope: ProfileScope, id: string, tx: Tx = db) {
      const [row] = isUuid(id)
        ? await tx
            .select()
            .from(profileFields)
            .where(and(inScope(scope), eq(profileFields.id, id)))
        : [];
      if (!row) throw new AppError('NOT_FOUND');
      return row;
    },

    /**
     * Serialises the field changes of one scene (the limit is counted, then a field added), and
     * answers how many fields it has and the next position.
     */
    async lockScene(tx: Tx, scope: ProfileScope) {
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(${`profile:${scope.spaceId}:${scope.sceneId}`}, 0))`,
      );
      const [row] = await tx
        .select({ fields: count(), last: max(profileFields.position) })
        .from(profileFields)
        .where(inScope(scope));
      return { fields: row?.fields ?? 0, nextPosition: (row?.last ?? -1) + 1 };
    },

    async insert(tx: Tx, scope: ProfileScope, values: FieldSettings & Pick<FieldRow, 'type' | 'position'>) {
      const [row] = await tx
        .insert(profileFields)
        .values({ ...values, spaceId: scope.spaceId, sceneId: scope.sceneId, createdBy: scope.userId })
        .returning();
      return row;
    },

    async update(tx: Tx, id: string, values: FieldSettings, now: Date) {
      const [row] = await tx
        .update(profileFields)
        .set({ ...values, updatedAt: now })
        .where(eq(profileFields.id, id))
        .returning();
      return row;
    },

    async remove(scope: ProfileScope, id: string) {
      await db.delete(profileFields).where(and(inScope(scope), eq(profileFields.id, id)));
    },

    async setPosition(tx: Tx, id: string, position: number) {
      await tx.update(profileFields).set({ position }).where(eq(profileFields.id, id));
    },
  };
}

export type FieldRepo = ReturnType<typeof createFieldRepo>;
