import { z } from 'zod';
import { ERRORS, type ErrorKey, formatMessage, type Language } from './errors.ts';
import { text } from './text.ts';

/** Event name → the zod schema of that event's `data`. */
export type StreamEventSchemas = Record<string, z.ZodType>;

/** A comment line (`: ping`) goes out this often on every stream, so proxies keep idle ones open. */
export const STREAM_HEARTBEAT_MS = 15_000;

/** Who may open a stream: a session (and space), anyone, or an agent's API key as bearer token. */
export type StreamAuth = boolean | 'api_key';

/**
 * A streaming route: one POST path that answers `text/event-stream`. Until the stream starts,
 * failures are answered the route's usual way (the JSON envelope; OpenAI's error shape on the
 * OpenAI-compatible API). Once it has started, only the events named here are sent.
 *
 * Framing `event`: each event is `event: <name>` then `data: <json>`. Framing `data` (OpenAI's):
 * only `data: <json>` lines, the name staying on this side of the wire, and `data: <done>` after a
 * complete answer. Either way a stream may carry heartbeat comments, which readers skip.
 */
export interface StreamDescriptor<
  B extends z.ZodType = z.ZodType,
  E extends StreamEventSchemas = StreamEventSchemas,
  A extends StreamAuth = StreamAuth,
> {
  path: string;
  body: B;
  events: E;
  framing: 'event' | 'data';
  /** The event that closes a complete stream; a stream that stops without it was cut short. */
  end?: string;
  /** With `data` framing: the line's text after the last event of a complete answer. */
  done?: string;
  /** true: a session (and space); false: anyone; `api_key`: an agent's API key as bearer token. */
  auth: A;
  summary: string;
  tag: string;
}

// `end` is checked against the event names here, not in the interface: there it would make every
// descriptor unassignable to the general StreamDescriptor.
export const defineStream = <B extends z.ZodType, E extends StreamEventSchemas, A extends StreamAuth>(
  stream: StreamDescriptor<B, E, A> & { end?: keyof E & string },
) => stream;

export type StreamBody<S extends StreamDescriptor> = z.input<S['body']>;

type EventsOf<S extends StreamDescriptor> = S['events'];

/** One event of a stream as a reader gets it: `{ event: 'delta', data: { text } }`, by name. */
export type StreamEvent<S extends StreamDescriptor> = {
  [K in keyof EventsOf<S> & string]: { event: K; data: z.output<EventsOf<S>[K]> };
}[keyof EventsOf<S> & string];

/** The data of one named event, as a writer must give it. */
export type StreamEventInput<S extends StreamDescriptor, K extends keyof EventsOf<S> & string> = z.input<
  EventsOf<S>[K]
>;

/**
 * An error event's data: a code from the error catalogue (only the keys given), the message in
 * the caller's language, and whatever else the stream adds.
 */
export const streamErrorSchema = <K extends ErrorKey, X extends z.ZodRawShape>(keys: readonly [K, ...K[]], extra: X) =>
  z.object({
    code: z.literal(keys.map((key) => ERRORS[key].code) as (typeof ERRORS)[K]['code'][]),
    msg: text(),
    ...extra,
  });

/** The catalogue's code and localised message for an error event. */
export const streamError = <K extends ErrorKey>(
  key: K,
  language: Language,
  params: Record<string, string | number> = {},
): { code: (typeof ERRORS)[K]['code']; msg: string } => ({
  code: ERRORS[key].code,
  msg: formatMessage(key, language, params),
});
