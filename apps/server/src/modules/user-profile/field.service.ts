import { PROFILE_LIMITS, type profileRoutes } from '@athena/contract';
import type { z } from 'zod';
import type { AuthContext } from '../../platform/auth-guard.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { type FieldRepo, type FieldRow, type FieldSettings, isUniqueViolation } from './field.repo.ts';
import { profileScope } from './profile-scope.ts';
import { presentField } from './user-profile.presenters.ts';
import { optionsValid } from './value-rules.ts';

type CreateBody = z.output<(typeof profileRoutes)['fieldCreate']['body']>;
type UpdateBody = z.output<(typeof profileRoutes)['fieldUpdate']['body']>;

/** The settings a field is stored with: a select's choices checked, the other types keep none. */
function settingsOf(body: CreateBody): FieldSettings {
  if (body.type === 'select' && !optionsValid(body.options)) throw new AppError('PROFILE_FIELD_OPTIONS_INVALID');
  return {
    name: body.name,
    options: body.type === 'select' ? body.options : [],
    required: body.required,
    aiExtract: body.ai_extract,
    aiOverwrite: body.ai_overwrite,
    description: body.description,
  };
}

/** A name taken in the scene (whatever its case, or two creates at once) is said so, not a fault. */
async function nameUnique<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('PROFILE_FIELD_NAME_TAKEN');
    throw error;
  }
}

/** A scene's profile fields: every member reads them, the creator and admins define them. */
export function createFieldService(deps: { db: Db; fields: FieldRepo; now: () => Date }) {
  const { db, fields } = deps;

  return {
    async list(ctx: AuthContext) {
      const scope = profileScope(ctx, 'profile.view');
      return { items: (await fields.list(scope)).map(presentField) };
    },

    async create(ctx: AuthContext, body: CreateBody) {
      const scope = profileScope(ctx, 'profile.define');
      const settings = settingsOf(body);
      const row = await nameUnique(() =>
        db.transaction(async (tx) => {
          const { fields: existing, nextPosition } = await fields.lockScene(tx, scope);
          if (existing >= PROFILE_LIMITS.fieldsPerScene) {
            throw new AppError('PROFILE_FIELD_LIMIT', { max: PROFILE_LIMITS.fieldsPerScene });
          }
          return fields.insert(tx, scope, { ...settings, type: body.type, position: nextPosition });
        }),
      );
      return presentField(row);
    },

    /**
     * Changes everything but the type. Values of a select option that is removed are kept, and
     * shown as they are until someone picks another option (docs/user-profiles.md).
     */
    async update(ctx: AuthContext, body: UpdateBody) {
      const scope = profileScope(ctx, 'profile.define');
      const field = await fields.find(scope, body.id);
      if (field.type !== body.type) throw new AppError('PROFILE_FIELD_TYPE_FIXED');
      const settings = settingsOf(body);
      const row = await nameUnique(() => db.transaction((tx) => fields.update(tx, field.id, settings, deps.now())));
      return presentField(row);
    },

    async remove(ctx: AuthContext, id: string) {
      const scope = profileScope(ctx, 'profile.define');
      const field = await fields.find(scope, id);
      await fields.remove(scope, field.id);
      return { ok: true as const };
    },

    /** The listed fields first, in that order; any not listed keep their order after them. */
    async reorder(ctx: AuthContext, ids: string[]) {
      const scope = profileScope(ctx, 'profile.define');
      const items = await db.transaction(async (tx) => {
        await fields.lockScene(tx, scope);
        const current = await fields.list(scope, tx);
        const byId = new Map(current.map((field) => [field.id, field]));
        const listed = [...new Set(ids)].map((id) => {
          const field = byId.get(id);
          if (!field) throw new AppError('NOT_FOUND');
          return field;
        });
        const order: FieldRow[] = [...listed, ...current.filter((field) => !listed.includes(field))];
        for (const [position, field] of order.entries()) {
          if (field.position !== position) await fields.setPosition(tx, field.id, position);
        }
        return order.map((field, position) => ({ ...field, position }));
      });
      return { items: items.map(presentField) };
    },
  };
}

export type FieldService = ReturnType<typeof createFieldService>;
