import type { ActivationEventStatus, ActivationMode, ActivationSendState } from '@athena/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';
import { users } from '../auth/auth.schema.ts';
import { chatCustomers } from '../chat-history/chat-history.schema.ts';
import { spaces } from '../space/space.schema.ts';

// Activation events (docs/user-profiles.md, Activation events): templates, events and one send per
// customer and event. The send's primary key is what makes "once per customer and event" hold.

/** A message to bring customers back: a text with `{{variables}}`, or an instruction to the agent. */
export const activationTemplates = pgTable(
  'activation_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    sceneId: integer('scene_id').notNull(),
    name: text('name').notNull(),
    mode: text('mode').$type<ActivationMode>().notNull(),
    body: text('body').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('activation_templates_name_key').on(t.spaceId, t.sceneId, sql`lower(${t.name})`)],
);

/** One sending of a template to an audience; the body is a copy, so editing the template changes no event. */
export const activationEvents = pgTable(
  'activation_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    sceneId: integer('scene_id').notNull(),
    name: text('name').notNull(),
    templateId: uuid('template_id').references(() => activationTemplates.id, { onDelete: 'set null' }),
    templateName: text('template_name').notNull(),
    mode: text('mode').$type<ActivationMode>().notNull(),
    body: text('body').notNull(),
    /** The audience as asked (filter or ids), kept to show how it was chosen. */
    audience: jsonb('audience').notNull(),
    status: text('status').$type<ActivationEventStatus>().notNull(),
    sendAt: timestamp('send_at', { withTimezone: true }).notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('activation_events_scene_idx').on(t.spaceId, t.sceneId, t.createdAt),
    // The sweep's "what is due" (few rows: only unfinished events).
    index('activation_events_due_idx').on(t.sendAt).where(sql`status in ('scheduled', 'sending')`),
  ],
);

/** One customer of one event: pending until sent, or failed with the reason. */
export const activationSends = pgTable(
  'activation_sends',
  {
    eventId: uuid('event_id')
      .notNull()
      .references(() => activationEvents.id, { onDelete: 'cascade' }),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => chatCustomers.id, { onDelete: 'cascade' }),
    spaceId: uuid('space_id').notNull(),
    sceneId: integer('scene_id').notNull(),
    state: text('state').$type<ActivationSendState>().notNull().default('pending'),
    reason: text('reason'),
    attempts: integer('attempts').notNull().default(0),
    /** When it is due: the event's time, then later after a transient failure (the backoff). */
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** A sender holds the row until then; a sender that died lets it go when it passes. */
    leasedUntil: timestamp('leased_until', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.customerId] }),
    index('activation_sends_scene_idx').on(t.spaceId, t.sceneId, t.scheduledAt),
    index('activation_sends_customer_idx').on(t.customerId, t.createdAt),
    // The report's activation chart: a scene's sends by when they finished.
    index('activation_sends_finished_idx').on(t.spaceId, t.sceneId, t.finishedAt),
    // The send list's order (newest first, then by customer) within a scene, and within one event;
    // NULLS FIRST as `order by created_at desc` sorts (drizzle's desc() alone is NULLS LAST: no match).
    index('activation_sends_created_idx').on(t.spaceId, t.sceneId, t.createdAt.desc().nullsFirst(), t.customerId),
    index('activation_sends_event_created_idx').on(t.eventId, t.createdAt.desc().nullsFirst(), t.customerId),
    // An event's counts per state, read from the index alone.
    index('activation_sends_state_idx').on(t.eventId, t.state),
  ],
);
