import {
  ACTIVATION_LIMITS,
  type ActivationSendState,
  type activationAudienceSchema,
  type activationRoutes,
} from '@athena/contract';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AuthContext } from '../../platform/auth-guard.ts';
import type { Db } from '../../platform/db/database.ts';
import { rowsOf } from '../../platform/db/sql.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { presentEvent, presentSend } from './activation.presenters.ts';
import type { ActivationRepo } from './activation.repo.ts';
import { unknownVariables } from './activation-render.ts';
import type { ActivationSender } from './activation-sender.ts';
import type { ActivationWriter } from './activation-writer.ts';
import { matchingCustomerIds } from './customer-list.query.ts';
import type { FieldRepo } from './field.repo.ts';
import type { ProfileService } from './profile.service.ts';
import { type ProfileScope, profileScope } from './profile-scope.ts';
import type { ProfileValueRepo } from './profile-value.repo.ts';

type Audience = z.output<typeof activationAudienceSchema>;
type CreateBody = z.output<(typeof activationRoutes)['eventCreate']['body']>;
type SendListBody = z.output<(typeof activationRoutes)['sendList']['body']>;

/** Customer ids read per keyset page while an audience is collected. */
const AUDIENCE_PAGE = 5_000;
const DAY_MS = 86_400_000;
/** A "now" a moment old (the dialog was open a while) is still now. */
const PAST_GRACE_MS = 5 * 60_000;

/**
 * Activation events of a scene: every member sees them and their sends; the creator and admins
 * (`profile.activate`) create and cancel them. The audience is fixed when the event is created
 * (docs/user-profiles.md, Activation events: the filter of the customer list, or chosen customers,
 * at most ACTIVATION_LIMITS.audience).
 */
export function createActivationService(deps: {
  db: Db;
  repo: ActivationRepo;
  fields: FieldRepo;
  values: ProfileValueRepo;
  profiles: ProfileService;
  writer: ActivationWriter;
  sender: ActivationSender;
  now: () => Date;
}) {
  const { db, repo } = deps;

  /** Chosen customers: each must be a customer of the scene (another's answers NOT_FOUND). */
  async function chosen(scope: ProfileScope, ids: string[]) {
    const wanted = [...new Set(ids.map(Number))];
    const found = rowsOf<{ id: number | string }>(
      await db.execute(sql`
        select id from chat_customers where space_id = ${scope.spaceId}::uuid and scene_id = ${scope.sceneId}
          and id = any(${`{${wanted.join(',')}}`}::bigint[])`),
    );
    if (found.length !== wanted.length) throw new AppError('NOT_FOUND');
    return wanted;
  }

  /** The filter's count, through the customer list itself (its checks of conditions and times included). */
  async function filterCount(ctx: AuthContext, audience: Audience) {
    const { total, total_estimated } = await deps.profiles.list(ctx, { ...audience, page: 1, page_size: 1 });
    return { count: total, estimated: total_estimated };
  }

  /**
   * The audience's customer ids, refused when empty or over the maximum. An exact count over the
   * maximum refuses at once; an estimated one (the list estimates above EXACT_TOTAL) decides
   * nothing: up to one more than the maximum are read and counted, so a filter that matches a
   * million customers costs as much as one that matches the maximum.
   */
  async function audienceIds(ctx: AuthContext, scope: ProfileScope, audience: Audience): Promise<number[]> {
    const max = ACTIVATION_LIMITS.audience;
    if (audience.customer_ids?.length) return chosen(scope, audience.customer_ids);
    const { count, estimated } = await filterCount(ctx, audience);
    if (!estimated && count > max) throw new AppError('ACTIVATION_AUDIENCE_TOO_LARGE', { count, max });
    if (!estimated && count === 0) throw new AppError('ACTIVATION_AUDIENCE_EMPTY');
    const ids = await matchingIds(ctx, audience, max + 1);
    if (ids.length === 0) throw new AppError('ACTIVATION_AUDIENCE_EMPTY');
    if (ids.length > max)
      throw new AppError('ACTIVATION_AUDIENCE_TOO_LARGE', { count: Math.max(count, ids.length), max });
    return ids;
  }

  /**
   * Up to `limit` ids of the customers the filter matches: exactly the list's conditions (its
   * checks of conditions and times included, the filter read once), in id order, by keyset pages,
   * which a customer's new message does not move: none is skipped or read twice.
   */
  async function matchingIds(ctx: AuthContext, audience: Audience, limit: number) {
    const { scope, filter } = await deps.profiles.filterOf(ctx, audience);
    const ids: number[] = [];
    let afterId = 0;
    while (ids.length < limit) {
      const wanted = Math.min(AUDIENCE_PAGE, limit - ids.length);
      const page = await matchingCustomerIds(db, scope, filter, { afterId, limit: wanted });
      ids.push(...page);
      const last = page.at(-1);
      if (last === undefined || page.length < wanted) break;
      afterId = last;
    }
    return ids;
  }

  function sendAtOf(body: CreateBody) {
    const now = deps.now().getTime();
    if (body.send_at === undefined) return new Date(now);
    if (body.send_at < now - PAST_GRACE_MS || body.send_at > now + ACTIVATION_LIMITS.scheduleDays * DAY_MS) {
      throw new AppError('ACTIVATION_SEND_AT_INVALID');
    }
    return new Date(Math.max(body.send_at, now));
  }

  return {
    async audienceCount(ctx: AuthContext, audience: Audience) {
      const scope = profileScope(ctx, 'profile.view');
      const counted = audience.customer_ids?.length
        ? { count: (await chosen(scope, audience.customer_ids)).length, estimated: false }
        : await filterCount(ctx, audience);
      return { ...counted, max: ACTIVATION_LIMITS.audience };
    },

    async create(ctx: AuthContext, body: CreateBody) {
      const scope = profileScope(ctx, 'profile.activate');
      const template = await repo.template(scope, body.template_id);
      const sendAt = sendAtOf(body);
      if (template.mode === 'agent' && !(await deps.writer.modelOf(scope.spaceId, scope.sceneId))) {
        throw new AppError('ACTIVATION_NO_MODEL');
      }
      if (template.mode === 'template') {
        // A field may have been renamed or deleted since the template was saved.
        const unknown = unknownVariables(
          template.body,
          (await deps.fields.list(scope)).map((field) => field.name),
        );
        if (unknown.length > 0) {
          throw new AppError('ACTIVATION_VARIABLES_UNKNOWN', { variables: unknown.map((n) => `{{${n}}}`).join(', ') });
        }
      }
      const ids = await audienceIds(ctx, scope, body.audience);
      const event = await repo.insertEvent(
        scope,
        {
          name: body.name,
          templateId: template.id,
          templateName: template.name,
          mode: template.mode,
          body: template.body,
          audience: body.audience,
          sendAt,
        },
        ids,
      );
      await deps.sender.schedule(event.id, sendAt);
      return presentEvent(await repo.event(scope, event.id));
    },

    async list(ctx: AuthContext, body: { page: number; page_size: number }) {
      const scope = profileScope(ctx, 'profile.view');
      const { items, total } = await repo.listEvents(scope, {
        offset: (body.page - 1) * body.page_size,
        limit: body.page_size,
      });
      return { items: items.map(presentEvent), total };
    },

    async get(ctx: AuthContext, id: string) {
      const scope = profileScope(ctx, 'profile.view');
      return presentEvent(await repo.event(scope, id));
    },

    async cancel(ctx: AuthContext, id: string) {
      const scope = profileScope(ctx, 'profile.activate');
      const event = await repo.event(scope, id);
      await db.transaction((tx) => repo.cancel(tx, event.id, deps.now()));
      return presentEvent(await repo.event(scope, event.id));
    },

    async sends(ctx: AuthContext, body: SendListBody) {
      const scope = profileScope(ctx, 'profile.view');
      const eventId = body.event_id ? (await repo.event(scope, body.event_id)).id : null;
      const customerId = body.customer_id ? await deps.values.customerIn(scope, body.customer_id) : null;
      const state: ActivationSendState | null = body.state ?? null;
      const { items, total } = await repo.listSends(
        scope,
        { eventId, customerId, state },
        { offset: (body.page - 1) * body.page_size, limit: body.page_size },
      );
      return { items: items.map(presentSend), total };
    },
  };
}

export type ActivationService = ReturnType<typeof createActivationService>;
