import {
  type Language,
  PROFILE_EXPECTED_LABELS,
  type ProfileCondition,
  type profileRoutes,
  TIME_FILTER_MS,
} from '@athena/contract';
import type { z } from 'zod';
import type { AuthContext } from '../../platform/auth-guard.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import type { CustomerFilter, FieldCondition } from './customer-filter.sql.ts';
import { countCustomers, listCustomers } from './customer-list.query.ts';
import type { FieldRepo, FieldRow } from './field.repo.ts';
import { profileScope } from './profile-scope.ts';
import type { Actor, ProfileValueRepo } from './profile-value.repo.ts';
import { presentChange, presentCustomer } from './user-profile.presenters.ts';
import { type CanonicalValue, type Checked, checkValue } from './value-rules.ts';

type ListBody = z.output<(typeof profileRoutes)['customerList']['body']>;
/** The list's filter alone (an activation event's audience). */
type FilterBody = Omit<ListBody, 'page' | 'page_size'>;
type HistoryBody = z.output<(typeof profileRoutes)['history']['body']>;

/** What a value of the field should have looked like, in the caller's language. */
function expectedText(
  field: FieldRow,
  expected: Exclude<Checked, { kind: 'value' | 'empty' }>['expected'],
  language: Language,
) {
  const separator = language === 'en' ? ', ' : '、';
  return PROFILE_EXPECTED_LABELS[expected][language].replace('{options}', field.options.join(separator));
}

/**
 * The value to store for `raw`, or null to clear it: refused when it does not fit the field's
 * type, or when it would empty a required field.
 */
function valueFor(field: FieldRow, raw: string | null, language: Language): CanonicalValue | null {
  const checked = checkValue(field, raw);
  if (checked.kind === 'invalid') {
    throw new AppError('PROFILE_VALUE_INVALID', {
      field: field.name,
      expected: expectedText(field, checked.expected, language),
    });
  }
  if (checked.kind === 'empty') {
    if (field.required) throw new AppError('PROFILE_VALUE_REQUIRED', { field: field.name });
    return null;
  }
  return checked.value;
}

/** A search condition checked against its field: numbers and dates compared as such, in canonical form. */
function conditionFor(field: FieldRow, condition: ProfileCondition, language: Language): FieldCondition {
  const { op } = condition;
  if (op === 'empty' || op === 'not_empty') return { fieldId: field.id, op };
  const input = (condition.value ?? '').trim();
  if (input === '') throw new AppError('BAD_REQUEST');
  if (op === 'contains') return { fieldId: field.id, op, value: input };
  const type = field.type;
  if (type !== 'number' && type !== 'date') {
    if (op !== 'eq') throw new AppError('BAD_REQUEST');
    return { fieldId: field.id, op, value: input };
  }
  const checked = checkValue(field, input);
  if (checked.kind !== 'value') {
    throw new AppError('PROFILE_VALUE_INVALID', { field: field.name, expected: expectedText(field, type, language) });
  }
  const value = checked.value.value;
  return op === 'eq' ? { fieldId: field.id, op, value } : { fieldId: field.id, op, on: type, value };
}

/** Customers' profiles: every member reads them and edits their values, in the scene of the call. */
export function createProfileService(deps: { db: Db; fields: FieldRepo; values: ProfileValueRepo; now: () => Date }) {
  const { db, fields, values } = deps;

  async function customerOf(customerId: number) {
    const [row, rows] = await Promise.all([values.customer(customerId), values.valuesOf([customerId])]);
    return presentCustomer(row, rows);
  }

  /** Last activity between `from` and `to` (either open): "active within" and "quiet for" together. */
  function windowOf(body: FilterBody): CustomerFilter['window'] {
    const now = deps.now().getTime();
    let window: { from: number | null; to: number | null } = { from: null, to: null };
    if (body.last_active === 'custom') {
      if (body.start_time === undefined || body.end_time === undefined || body.start_time > body.end_time) {
        throw new AppError('CHAT_TIME_RANGE_INVALID');
      }
      window = { from: body.start_time, to: body.end_time };
    } else if (body.last_active) {
      window = { from: now - TIME_FILTER_MS[body.last_active], to: null };
    }
    if (body.inactive) {
      const quietSince = now - TIME_FILTER_MS[body.inactive];
      window.to = window.to === null ? quietSince : Math.min(window.to, quietSince);
    }
    return window.from === null && window.to === null ? null : window;
  }

  /** Sets one value (null clears it) as `actor`, with its change, unless it is already that value. */
  async function write(customerId: number, field: FieldRow, next: CanonicalValue | null, actor: Actor) {
    await db.transaction(async (tx) => {
      const current = await values.current(tx, customerId, field.id);
      const old = current?.value ?? null;
      if (old === (next?.value ?? null)) return;
      await values.write(tx, { customerId, fieldId: field.id }, old, next, actor, deps.now());
    });
  }

  /** The caller's scope (`profile.view`) and the body's filter, its conditions checked against their fields. */
  async function filterOf(ctx: AuthContext, body: FilterBody) {
    const scope = profileScope(ctx, 'profile.view');
    const window = windowOf(body);
    const byId = new Map(body.conditions.length ? (await fields.list(scope)).map((f) => [f.id, f]) : []);
    const conditions = body.conditions.map((condition) => {
      const field = byId.get(condition.field_id);
      if (!field) throw new AppError('NOT_FOUND');
      return conditionFor(field, condition, ctx.language);
    });
    const filter: CustomerFilter = {
      keyword: body.keyword ?? '',
      conditions,
      window,
      satisfaction: body.satisfaction ?? null,
    };
    return { scope, filter };
  }

  return {
    async list(ctx: AuthContext, body: ListBody) {
      const { scope, filter } = await filterOf(ctx, body);
      const { rows, total, totalEstimated } = await listCustomers(db, scope, filter, {
        offset: (body.page - 1) * body.page_size,
        limit: body.page_size,
      });
      const all = await values.valuesOf(rows.map((row) => Number(row.id)));
      return {
        items: rows.map((row) =>
          presentCustomer(
            row,
            all.filter((value) => value.customerId === Number(row.id)),
          ),
        ),
        total,
        total_estimated: totalEstimated,
      };
    },

    async count(ctx: AuthContext, body: FilterBody) {
      const { scope, filter } = await filterOf(ctx, body);
      return { total: await countCustomers(db, scope, filter) };
    },

    /**
     * The list's filter of `body` and the caller's scope, checked as the list checks them (for an
     * activation event's audience, read with matchingCustomerIds). Read once: a "last 7 days"
     * window is fixed at this moment.
     */
    filterOf,

    async get(ctx: AuthContext, id: string) {
      const scope = profileScope(ctx, 'profile.view');
      return customerOf(await values.customerIn(scope, id));
    },

    async set(ctx: AuthContext, body: { customer_id: string; field_id: string; value: string | null }) {
      const scope = profileScope(ctx, 'profile.edit');
      const customerId = await values.customerIn(scope, body.customer_id);
      const field = await fields.find(scope, body.field_id);
      const next = valueFor(field, body.value, ctx.language);
      await write(customerId, field, next, { source: 'person', userId: scope.userId, label: '' });
      return customerOf(customerId);
    },

    async history(ctx: AuthContext, body: HistoryBody) {
      const scope = profileScope(ctx, 'profile.view');
      const customerId = await values.customerIn(scope, body.customer_id);
      const fieldId = body.field_id ? (await fields.find(scope, body.field_id)).id : null;
      const { items, total } = await values.history(customerId, fieldId, { page: body.page, pageSize: body.page_size });
      return { items: items.map(presentChange), total };
    },

    /**
     * Undoes a change that is still the latest of its customer's field: the value goes back to
     * what it was before, as a new change by the caller, and the old one is marked undone by it.
     */
    async revert(ctx: AuthContext, changeId: string) {
      const scope = profileScope(ctx, 'profile.edit');
      const change = await values.change(scope, changeId);
      const field = await fields.find(scope, change.fieldId);
      const next = valueFor(field, change.oldValue, ctx.language);
      await db.transaction(async (tx) => {
        const current = await values.current(tx, change.customerId, field.id);
        const latest = await values.latestChangeId(tx, change.customerId, field.id);
        if (latest !== change.id) throw new AppError('PROFILE_CHANGE_NOT_REVERTIBLE');
        const actor: Actor = { source: 'person', userId: scope.userId, label: '' };
        const target = { customerId: change.customerId, fieldId: field.id };
        const revertId = await values.write(tx, target, current?.value ?? null, next, actor, deps.now());
        await values.markReverted(tx, change.id, revertId);
      });
      return customerOf(change.customerId);
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
