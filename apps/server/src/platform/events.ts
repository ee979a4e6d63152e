import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';

/**
 * What happened in this process, for the reactions of other modules. A module declares the events
 * it emits in its own `events.ts`, by adding to this one map:
 *
 *     declare module '../../platform/events.ts' {
 *       interface DomainEvents { 'chat.stored': ChatStored }
 *     }
 *
 * so one search for the event's name finds its payload, where it is emitted and every reaction.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by each module's events.ts (declaration merging)
export interface DomainEvents {}

/**
 * Messages every process hears (PostgreSQL NOTIFY, so they work N-wide behind a load balancer):
 * cancellations and live feeds. Declared the same way as DomainEvents; each channel is opened with
 * a zod schema, because a payload that crossed processes is checked before it is believed.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by each module's events.ts (declaration merging)
export interface BroadcastEvents {}

export interface Reaction<K extends keyof DomainEvents> {
  /** What it does and when, e.g. `record-behaviour-when-chat-stored`: the log names it when it fails. */
  name: string;
  run(payload: DomainEvents[K]): Promise<void> | void;
}

export interface Channel<P> {
  /** Heard at once in this process, and by every other process through NOTIFY. */
  send(payload: P): Promise<void>;
  receive(listener: (payload: P) => void): void;
}

export interface Events {
  /** Runs the event's reactions one after another; a failing reaction is logged and never fails the emitter. */
  emit<K extends keyof DomainEvents>(name: K, payload: DomainEvents[K]): Promise<void>;
  react<K extends keyof DomainEvents>(name: K, reaction: Reaction<K>): void;
  /**
   * Opens a broadcast channel, with the schema the declaring module exports (through its front
   * door when another module listens): one name, one schema.
   */
  channel<K extends keyof BroadcastEvents>(name: K, schema: z.ZodType<BroadcastEvents[K]>): Channel<BroadcastEvents[K]>;
}

export const EVENTS_CHANNEL = 'athena_events';
/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7_900;

type Envelope = { e: string; o: string; p: unknown };

/**
 * The event hub. `notify` sends a NOTIFY on EVENTS_CHANNEL and `listen` registers for it; the
 * invalidation bus (cache.ts) is a different channel and carries cache keys only.
 */
export function createEvents(ops: {
  notify: (payload: string) => Promise<void>;
  listen: (onMessage: (payload: string) => void) => Promise<void>;
  log: FastifyBaseLogger;
}): Events & { start(): Promise<void> } {
  const reactions = new Map<string, Reaction<never>[]>();
  const channels = new Map<string, { schema: z.ZodType; listeners: ((payload: never) => void)[] }>();
  // This process hears its own NOTIFYs too; it has told its listeners already, at send.
  const origin = randomUUID();

  const deliver = (name: string, payload: unknown) => {
    for (const listener of channels.get(name)?.listeners ?? []) (listener as (payload: unknown) => void)(payload);
  };

  const heard = (raw: string) => {
    // '*' is what a reconnected listener says (database.ts): nothing to deliver.
    if (raw === '*') return;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(raw) as Envelope;
    } catch {
      ops.log.warn({ payload: raw.slice(0, 200) }, 'an event that is not JSON was ignored');
      return;
    }
    if (envelope.o === origin) return;
    const channel = channels.get(envelope.e);
    if (!channel) return;
    const parsed = channel.schema.safeParse(envelope.p);
    if (!parsed.success) {
      ops.log.warn({ event: envelope.e, issues: parsed.error.issues }, 'an event with an invalid payload was ignored');
      return;
    }
    deliver(envelope.e, parsed.data);
  };

  return {
    start: () => ops.listen(heard),

    async emit(name, payload) {
      for (const reaction of reactions.get(name) ?? []) {
        try {
          await (reaction as Reaction<typeof name>).run(payload);
        } catch (error) {
          ops.log.error({ err: error, event: name, reaction: reaction.name }, 'a reaction failed');
        }
      }
    },

    react(name, reaction) {
      reactions.set(name, [...(reactions.get(name) ?? []), reaction as Reaction<never>]);
    },

    channel(name, schema) {
      let channel = channels.get(name);
      if (channel && channel.schema !== schema)
        throw new Error(`the event channel ${name} is opened with another schema`);
      if (!channel) {
        channel = { schema, listeners: [] };
        channels.set(name, channel);
      }
      const { listeners } = channel;
      return {
        async send(payload) {
          const text = JSON.stringify({ e: name, o: origin, p: payload } satisfies Envelope);
          if (Buffer.byteLength(text) > MAX_PAYLOAD_BYTES) throw new Error(`the ${name} event is too large for NOTIFY`);
          deliver(name, payload);
          await ops.notify(text);
        },
        receive(listener) {
          listeners.push(listener as (payload: never) => void);
        },
      };
    },
  };
}
