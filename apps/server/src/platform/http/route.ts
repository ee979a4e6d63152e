import { errorEnvelope, type Language, okEnvelope, type RouteDescriptor } from '@athena/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { type AuthContext, authenticate } from '../auth-guard.ts';
import { languageOf } from './error-handler.ts';

export interface RequestContext {
  request: FastifyRequest;
  language: Language;
  /** IANA name from the `timezone` header, for day buckets; UTC when absent or unknown. */
  timezone: string;
  ip: string;
}

type Handler<R extends RouteDescriptor, C> = (
  body: z.output<R['body']>,
  ctx: C,
) => Promise<z.output<R['data']>> | z.output<R['data']>;

// Checking a zone name with Intl costs far more than the rest of a cached call; remember answers.
const knownZones = new Map<string, boolean>();

function timezoneOf(request: FastifyRequest) {
  const value = request.headers.timezone;
  if (typeof value !== 'string' || value.length > 64) return 'UTC';
  let valid = knownZones.get(value);
  if (valid === undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: value });
      valid = true;
    } catch {
      valid = false;
    }
    if (knownZones.size < 1000) knownZones.set(value, valid);
  }
  return valid ? value : 'UTC';
}

export const contextOf = (request: FastifyRequest): RequestContext => ({
  request,
  language: languageOf(request),
  timezone: timezoneOf(request),
  ip: request.ip,
});

function register<R extends RouteDescriptor>(
  app: FastifyInstance,
  route: R,
  run: (body: z.output<R['body']>, request: FastifyRequest) => Promise<unknown>,
) {
  app.withTypeProvider<ZodTypeProvider>().route({
    method: 'POST',
    url: route.path,
    schema: {
      summary: route.summary,
      tags: [route.tag],
      body: route.body,
      response: { 200: okEnvelope(route.data).or(errorEnvelope) },
    },
    handler: async (request) => ({
      code: 0 as const,
      msg: 'ok',
      data: await run(request.body as z.output<R['body']>, request),
    }),
  });
}

/** A call that works without a session (sign-in). */
export function publicRoute<R extends RouteDescriptor>(
  app: FastifyInstance,
  route: R,
  handler: Handler<R, RequestContext>,
) {
  register(app, route, async (body, request) => handler(body, contextOf(request)));
}

/** A call that needs a valid session; a `space-id` header the user cannot use answers 16023. */
export function authedRoute<R extends RouteDescriptor>(
  app: FastifyInstance,
  route: R,
  handler: Handler<R, AuthContext>,
) {
  register(app, route, async (body, request) => handler(body, await authenticate(request, contextOf(request))));
}
