import { z } from 'zod';

/** Every business answer is HTTP 200 with this envelope (DESIGN.md §4). */
export const okEnvelope = <T extends z.ZodType>(data: T) => z.object({ code: z.literal(0), msg: z.string(), data });

export const errorEnvelope = z.object({
  code: z.number().int(),
  msg: z.string(),
  request_id: z.string().optional(),
});

export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

/**
 * A route descriptor: one POST path, its request body and the `data` of its success envelope.
 * The server registers handlers from these; the web client derives its types from them.
 */
export interface RouteDescriptor<B extends z.ZodType = z.ZodType, D extends z.ZodType = z.ZodType> {
  path: string;
  body: B;
  data: D;
  /** false for the sign-in calls that work without a session. */
  auth: boolean;
  summary: string;
  tag: string;
}

export const defineRoute = <B extends z.ZodType, D extends z.ZodType>(route: RouteDescriptor<B, D>) => route;

export type RouteBody<R extends RouteDescriptor> = z.input<R['body']>;
export type RouteData<R extends RouteDescriptor> = z.output<R['data']>;

/** An empty request body; clients may send `{}` or nothing. */
export const emptyBody = z.object({}).nullish();
