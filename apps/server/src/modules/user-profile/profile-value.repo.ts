import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { rowsOf, type Tx } from '../../platform/db/sql.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { users } from '../auth/auth.schema.ts';
import { chatCustomers } from '../chat-history/chat-history.schema.ts';
import type { ProfileScope } from './profile-scope.ts';
import { profileChanges, profileFields, profileValues } from './user-profile.schema.ts';
import type { CanonicalValue } from './value-rules.ts';

export type ValueRow = typeof profileValues.$inferSelect;
export type ChangeRow = typeof profileChanges.$inferSelect;

/** A customer as the profile pages show them: the row, their activity, and their conversations' counts. */
export interface CustomerRow {
  id: number | string;
  name: string;
  avatar_url: string | null;
  source_id: string;
  created_at: Date | string;
  /** Their conversations' earliest message; null only before the first batch that names them. */
  first_message_at: Date | string | null;
  last_active_at: Date | string | null;
  conversation_count: number | string;
  message_count: number | string;
}

export interface ValueWithName {
  customerId: number;
  fieldId: string;
  value: string;
  source: ValueRow['source'];
  updatedAt: Date;
  updatedByLabel: string;
  updatedByName: string | null;
}

export interface ChangeWithNames extends ChangeRow {
  fieldName: string;
  actorName: string | null;
}

const asId = (id: string) => (/^\d{1,18}$/.test(id) ? Number(id) : null);

/** Who made a change, as written to a value and to its history. */
export interface Actor {
  source: ValueRow['source'];
  userId: string | null;
  label: string;
  messageId?: number | null;
}

/** Customers' values and their history; every lookup inside the caller's space and scene. */
export function createProfileValueRepo(db: Db) {
  return {
    /** The customer's id when they are in the scope; NOT_FOUND otherwise (a malformed id too). */
    async customerIn(scope: ProfileScope, id: string) {
      const customerId = asId(id);
      const [row] =
        customerId === null
          ? []
          : await db
              .select({ id: chatCustomers.id })
              .from(chatCustomers)
              .where(
                and(
                  eq(chatCustomers.id, customerId),
                  eq(chatCustomers.spaceId, scope.spaceId),
                  eq(chatCustomers.sceneId, scope.sceneId),
                ),
              );
      if (!row) throw new AppError('NOT_FOUND');
      return row.id;
    },

    /** One customer with their activity (the customer must be in scope already). */
    async customer(customerId: number): Promise<CustomerRow> {
      const [row] = rowsOf<CustomerRow>(
        await db.execute(sql`
          select cu.id, cu.name, cu.avatar_url, cu.source_id, cu.created_at, cu.first_message_at, cu.last_active_at,
            a.conversation_count, a.message_count
          from chat_customers cu
          cross join lateral (
            select count(*) as conversation_count,
              coalesce(sum(c.message_count), 0) as message_count
            from chat_conversations c where c.customer_id = cu.id
          ) a
          where cu.id = ${customerId}`),
      );
      if (!row) throw new AppError('NOT_FOUND');
      return row;
    },

    /** The values of these customers, in their fields' order, with who last set each. */
    async valuesOf(customerIds: number[]): Promise<ValueWithName[]> {
      if (customerIds.length === 0) return [];
      return db
        .select({
          customerId: profileValues.customerId,
          fieldId: profileValues.fieldId,
          value: profileValues.value,
          source: profileValues.source,
          updatedAt: profileValues.updatedAt,
          updatedByLabel: profileValues.updatedByLabel,
          updatedByName: users.nickname,
        })
        .from(profileValues)
        .innerJoin(profileFields, eq(profileFields.id, profileValues.fieldId))
        .leftJoin(users, eq(users.id, profileValues.updatedBy))
        .where(inArray(profileValues.customerId, customerIds))
        .orderBy(asc(profileFields.position), asc(profileFields.createdAt));
    },

    /**
     * The current value. Writers of one customer's field take turns until the transaction ends
     * (a lock of its own: there may be no value row yet to lock), so each change's old value is
     * the one it replaced.
     */
    async current(tx: Tx, customerId: number, fieldId: string) {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`profile:${customerId}:${fieldId}`}, 0))`);
      const [row] = await tx
        .select()
        .from(profileValues)
        .where(and(eq(profileValues.customerId, customerId), eq(profileValues.fieldId, fieldId)));
      return row ?? null;
    },

    /** Writes the value (or clears it) and its change, in the caller's transaction. */
    async write(
      tx: Tx,
      target: { customerId: number; fieldId: string },
      old: string | null,
      next: CanonicalValue | null,
      actor: Actor,
      now: Date,
    ) {
      if (next) {
        const values = {
          value: next.value,
          valueNumber: next.number,
          valueDate: next.date,
          source: actor.source,
          updatedBy: actor.userId,
          updatedByLabel: actor.label,
          updatedAt: now,
        };
        await tx
          .insert(profileValues)
          .values({ ...target, ...values })
          .onConflictDoUpdate({ target: [profileValues.customerId, profileValues.fieldId], set: values });
      } else {
        await tx
          .delete(profileValues)
          .where(and(eq(profileValues.customerId, target.customerId), eq(profileValues.fieldId, target.fieldId)));
      }
      const [change] = await tx
        .insert(profileChanges)
        .values({
          ...target,
          oldValue: old,
          newValue: next?.value ?? null,
          source: actor.source,
          actorId: actor.userId,
          actorLabel: actor.label,
          messageId: actor.messageId ?? null,
          createdAt: now,
        })
        .returning({ id: profileChanges.id });
      return change.id;
    },

    /** A change of a customer in the scope; NOT_FOUND otherwise. */
    async change(scope: ProfileScope, id: string, tx: Tx = db) {
      const changeId = asId(id);
      const [row] =
        changeId === null
          ? []
          : await tx
              .select({ change: profileChanges })
              .from(profileChanges)
              .innerJoin(chatCustomers, eq(chatCustomers.id, profileChanges.customerId))
              .where(
                and(
                  eq(profileChanges.id, changeId),
                  eq(chatCustomers.spaceId, scope.spaceId),
                  eq(chatCustomers.sceneId, scope.sceneId),
                ),
              );
      if (!row) throw new AppError('NOT_FOUND');
      return row.change;
    },

    async latestChangeId(tx: Tx, customerId: number, fieldId: string) {
      const [row] = await tx
        .select({ id: profileChanges.id })
        .from(profileChanges)
        .where(and(eq(profileChanges.customerId, customerId), eq(profileChanges.fieldId, fieldId)))
        .orderBy(desc(profileChanges.id))
        .limit(1);
      return row?.id ?? null;
    },

    async markReverted(tx: Tx, changeId: number, by: number) {
      await tx.update(profileChanges).set({ revertedBy: by }).where(eq(profileChanges.id, changeId));
    },

    /** A page of a customer's changes (or one field's), newest first, with the total. */
    async history(customerId: number, fieldId: string | null, page: { page: number; pageSize: number }) {
      const where = and(
        eq(profileChanges.customerId, customerId),
        fieldId ? eq(profileChanges.fieldId, fieldId) : undefined,
      );
      const items: ChangeWithNames[] = await db
        .select({
          id: profileChanges.id,
          customerId: profileChanges.customerId,
          fieldId: profileChanges.fieldId,
          oldValue: profileChanges.oldValue,
          newValue: profileChanges.newValue,
          source: profileChanges.source,
          actorId: profileChanges.actorId,
          actorLabel: profileChanges.actorLabel,
          messageId: profileChanges.messageId,
          revertedBy: profileChanges.revertedBy,
          createdAt: profileChanges.createdAt,
          fieldName: profileFields.name,
          actorName: users.nickname,
        })
        .from(profileChanges)
        .innerJoin(profileFields, eq(profileFields.id, profileChanges.fieldId))
        .leftJoin(users, eq(users.id, profileChanges.actorId))
        .where(where)
        .orderBy(desc(profileChanges.id))
        .limit(page.pageSize)
        .offset((page.page - 1) * page.pageSize);
      const [total] = await db.select({ n: count() }).from(profileChanges).where(where);
      return { items, total: total?.n ?? 0 };
    },
  };
}

export type ProfileValueRepo = ReturnType<typeof createProfileValueRepo>;
