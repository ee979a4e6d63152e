import { z } from 'zod';
import type { ErrorKey } from './errors.ts';
import { text } from './text.ts';

// One `code` for every route's envelope rather than a new literal each (see text()).
const okCode = z.literal(0);

/** Every business answer is HTTP 200 with this envelope (docs/api.md). */
export const okEnvelope = <T extends z.ZodType>(data: T) => z.object({ code: okCode, msg: text(), data });

export const errorEnvelope = z.object({
  code: z.number().int(),
  msg: text(),
  request_id: text().optional(),
  /** Seconds until a refused call may be tried again, when a limit refused it (also `Retry-After`). */
  retry_after: z.number().int().positive().optional(),
});

export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

/**
 * An answer as a caller reads it before looking at `code`: `data` is there only when `code` is 0,
 * `request_id` only on a failure. Tests and raw readers use this instead of declaring their own.
 */
export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
  request_id?: string;
  retry_after?: number;
}

/**
 * A route descriptor: one POST path, its request body and the `data` of its success envelope.
 * The server registers handlers from these; the web client derives its types from them.
 */
export interface RouteDescriptor<
  B extends z.ZodType = z.ZodType,
  D extends z.ZodType = z.ZodType,
  A extends boolean = boolean,
> {
  path: string;
  body: B;
  data: D;
  /** false for the calls that work without a session; the server refuses to register a mismatch. */
  auth: A;
  summary: string;
  tag: string;
}

// `A` keeps the literal `true`/`false`, so registering a route the wrong way is a type error too.
export const defineRoute = <B extends z.ZodType, D extends z.ZodType, A extends boolean>(
  route: RouteDescriptor<B, D, A>,
) => route;

export type RouteBody<R extends RouteDescriptor> = z.input<R['body']>;
export type RouteData<R extends RouteDescriptor> = z.output<R['data']>;

/** An empty request body; clients may send `{}` or nothing. */
export const emptyBody = z.object({}).nullish();

/** Query parameters or headers of an upload: none. */
export const noParams = z.object({});

/**
 * An upload route: one POST path whose body is the file's raw bytes, with what describes the file
 * (its base, its name) in the query string or in headers, and the usual envelope in answer.
 */
export interface UploadDescriptor<
  Q extends z.ZodObject = z.ZodObject,
  H extends z.ZodObject = z.ZodObject,
  D extends z.ZodType = z.ZodType,
  A extends boolean = boolean,
> {
  path: string;
  /** The query string; `noParams` when the route takes none. */
  query: Q;
  /** Headers besides the usual ones (token, space-id, …); `noParams` when none. */
  headers: H;
  /**
   * The content types a client declares, the first being what it sends by default. The server
   * still decides by the bytes themselves, so another declared type is answered, not refused.
   */
  contentTypes: readonly [string, ...string[]];
  /** The largest file accepted, and the refusal for one over it (also when the body is cut off). */
  maxBytes: number;
  tooLarge: ErrorKey;
  data: D;
  auth: A;
  summary: string;
  tag: string;
}

export const defineUpload = <Q extends z.ZodObject, H extends z.ZodObject, D extends z.ZodType, A extends boolean>(
  route: UploadDescriptor<Q, H, D, A>,
) => route;

export type UploadQuery<U extends UploadDescriptor> = z.input<U['query']>;
export type UploadHeaders<U extends UploadDescriptor> = z.input<U['headers']>;
export type UploadData<U extends UploadDescriptor> = z.output<U['data']>;
