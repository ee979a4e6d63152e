import { errorEnvelope, okEnvelope, type UploadData, type UploadDescriptor } from '@athena/contract';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { type AuthContext, authenticate } from '../auth-guard.ts';
import { AppError } from './app-error.ts';
import { sendError } from './error-handler.ts';
import { contextOf, type RequestContext } from './request-context.ts';

/**
 * The reader stops this far above a route's limit, so a far bigger body is never buffered, while
 * the handler (which counts exactly) answers the ones just over it. Both give the route's refusal.
 */
const READ_SLACK_BYTES = 64 * 1024;

export type UploadContext<U extends UploadDescriptor> = U['auth'] extends false ? RequestContext : AuthContext;

/** What an upload handler receives; query and headers are already checked against the descriptor. */
export interface UploadRequest<U extends UploadDescriptor> {
  bytes: Buffer;
  query: z.output<U['query']>;
  headers: z.output<U['headers']>;
  /** The declared content type, lower case and without parameters; '' when none was sent. */
  contentType: string;
  request: FastifyRequest;
}

export interface UploadHandlers<U extends UploadDescriptor> {
  /**
   * Runs before the body is read (and before query and headers are checked), so a caller who may
   * not upload here never makes us buffer the file.
   */
  before?: (ctx: UploadContext<U>, request: FastifyRequest) => Promise<unknown> | unknown;
  handle: (upload: UploadRequest<U>, ctx: UploadContext<U>) => Promise<UploadData<U>> | UploadData<U>;
}

const hasFields = (schema: z.ZodObject) => Object.keys(schema.shape).length > 0;

const declaredType = (request: FastifyRequest) =>
  (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();

/**
 * Registers an upload route from its descriptor: the session first (when the descriptor asks for
 * one), then `before`, then the body as bytes, then query and headers, then `handle`; answers in
 * the usual envelope. The body parser lives in a scope of its own, so everywhere else JSON stays
 * the only accepted body; here every content type reaches the handler as bytes, because the
 * routes decide by content and answer a wrong file with their own refusal.
 */
export function uploadRoute<U extends UploadDescriptor>(app: FastifyInstance, route: U, handlers: UploadHandlers<U>) {
  const bodyLimit = route.maxBytes + READ_SLACK_BYTES;
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, body, done) => done(null, body));
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(request, reply, route.tooLarge);
      throw error; // the application's handler shapes everything else
    });

    const contexts = new WeakMap<FastifyRequest, UploadContext<U>>();
    scope.withTypeProvider<ZodTypeProvider>().route({
      method: 'POST',
      url: route.path,
      bodyLimit,
      schema: {
        summary: route.summary,
        tags: [route.tag],
        consumes: [...route.contentTypes],
        ...(hasFields(route.query) ? { querystring: route.query } : {}),
        // Loose, so the usual headers (token, language, …) stay on the request once it is checked.
        ...(hasFields(route.headers) ? { headers: route.headers.loose() } : {}),
        response: { 200: okEnvelope(route.data).or(errorEnvelope) },
      },
      onRequest: async (request) => {
        const base = contextOf(request);
        const ctx = (route.auth ? await authenticate(request, base) : base) as UploadContext<U>;
        await handlers.before?.(ctx, request);
        contexts.set(request, ctx);
      },
      handler: async (request) => {
        const ctx = contexts.get(request);
        if (!ctx) throw new AppError('LOGIN_EXPIRED');
        const data = await handlers.handle(
          {
            bytes: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
            query: request.query as z.output<U['query']>,
            headers: request.headers as z.output<U['headers']>,
            contentType: declaredType(request),
            request,
          },
          ctx,
        );
        return { code: 0 as const, msg: 'ok', data };
      },
    });
  });
}
