import { errorEnvelope, okEnvelope, type RouteDescriptor } from '@athena/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { type AuthContext, authenticate } from '../auth-guard.ts';
import { contextOf, type RequestContext } from './request-context.ts';

type Handler<R extends RouteDescriptor, C> = (
  body: z.output<R['body']>,
  ctx: C,
) => Promise<z.output<R['data']>> | z.output<R['data']>;

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

/**
 * The descriptor's `auth` flag is what the contract (and the OpenAPI document) promise, so a route
 * registered the other way stops the server at start-up instead of quietly opening a call or
 * refusing one. The types refuse it already; this catches casts and descriptors built at run time.
 */
function requireAuthFlag(route: RouteDescriptor, expected: boolean) {
  if (route.auth === expected) return;
  const wanted = route.auth ? 'authedRoute' : 'publicRoute';
  throw new Error(`${route.path} is declared with auth: ${route.auth} and must be registered with ${wanted}`);
}

/** A call that works without a session (sign-in); its descriptor says `auth: false`. */
export function publicRoute<R extends RouteDescriptor<z.ZodType, z.ZodType, false>>(
  app: FastifyInstance,
  route: R,
  handler: Handler<R, RequestContext>,
) {
  requireAuthFlag(route, false);
  register(app, route, async (body, request) => handler(body, contextOf(request)));
}

/**
 * A call that needs a valid session (its descriptor says `auth: true`); a `space-id` header the
 * user cannot use answers 16023.
 */
export function authedRoute<R extends RouteDescriptor<z.ZodType, z.ZodType, true>>(
  app: FastifyInstance,
  route: R,
  handler: Handler<R, AuthContext>,
) {
  requireAuthFlag(route, true);
  register(app, route, async (body, request) => handler(body, await authenticate(request, contextOf(request))));
}
