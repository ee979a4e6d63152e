import { errorEnvelope, okEnvelope, type RouteDescriptor } from '@athena/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { type AuthContext, authenticate } from '../auth-guard.ts';
import { AppError } from './app-error.ts';
import { contextOf, type RequestContext } from './request-context.ts';

type Handler<R extends RouteDescriptor, C> = (
  body: z.output<R['body']>,
  ctx: C,
) => Promise<z.output<R['data']>> | z.output<R['data']>;

function register<R extends RouteDescriptor>(
  app: FastifyInstance,
  route: R,
  run: (body: z.output<R['body']>, request: FastifyRequest) => Promise<unknown>,
  onRequest?: (request: FastifyRequest) => Promise<void>,
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
    ...(onRequest ? { onRequest } : {}),
    handler: async (request) => ({
      code: 0 as const,
      msg: 'ok',
      data: await run(request.body as z.output<R['body']>, request),
    }),
  });
}

/**
 * Resolves the session in the route's onRequest hook: before the body is read, parsed or checked
 * against the schema, so a caller without a session is told only that (LOGIN_EXPIRED), never what
 * the route would accept, and no one without a session makes us read a body. The handler takes the
 * context from `contextFor`.
 */
export function sessionFirst() {
  const contexts = new WeakMap<FastifyRequest, AuthContext>();
  return {
    onRequest: async (request: FastifyRequest) => {
      contexts.set(request, await authenticate(request, contextOf(request)));
    },
    contextFor(request: FastifyRequest): AuthContext {
      const ctx = contexts.get(request);
      if (!ctx) throw new AppError('LOGIN_EXPIRED');
      return ctx;
    },
  };
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
  const session = sessionFirst();
  register(app, route, async (body, request) => handler(body, session.contextFor(request)), session.onRequest);
}

/**
 * A call with a JSON body answered with a file (an export, an attachment) or, on a refusal, the
 * error envelope. It needs a session, resolved before the body is looked at, as on every route.
 */
export function authedFileRoute<B extends z.ZodType>(
  app: FastifyInstance,
  route: { path: string; summary: string; tag: string; body: B },
  handler: (body: z.output<B>, ctx: AuthContext, reply: FastifyReply) => Promise<FastifyReply>,
) {
  const session = sessionFirst();
  app.withTypeProvider<ZodTypeProvider>().post(
    route.path,
    {
      schema: { summary: route.summary, tags: [route.tag], body: route.body },
      onRequest: session.onRequest,
    },
    (request, reply) => handler(request.body as z.output<B>, session.contextFor(request), reply),
  );
}
