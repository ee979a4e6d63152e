import { ERRORS, type ErrorKey, formatMessage, isErrorKey, type Language, parseLanguage } from '@athena/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from './app-error.ts';

export function languageOf(request: FastifyRequest): Language {
  return parseLanguage(request.headers.language);
}

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  key: ErrorKey,
  params: Record<string, string | number> = {},
  retryAfterSeconds?: number,
) {
  const { code, httpStatus } = ERRORS[key];
  // Said twice: the header for HTTP clients and proxies, the field for a page's countdown.
  if (retryAfterSeconds) reply.header('retry-after', String(retryAfterSeconds));
  return reply.status(httpStatus).send({
    code,
    msg: formatMessage(key, languageOf(request), params),
    request_id: request.id,
    ...(retryAfterSeconds ? { retry_after: retryAfterSeconds } : {}),
  });
}

/** Maps every failure to the response envelope (docs/api.md); nothing leaves as a bare 500. */
export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return sendError(request, reply, error.key, error.params, error.retryAfterSeconds);
    }

    if (hasZodFastifySchemaValidationErrors(error)) {
      // Field rules carry an error key as their message (see contract validation.ts).
      const first = error.validation[0];
      const message = first?.message ?? '';
      if (isErrorKey(message)) return sendError(request, reply, message);
      const field = first?.instancePath?.replace(/^\//, '').replaceAll('/', '.') || 'body';
      return sendError(request, reply, 'BAD_REQUEST', { detail: `${field}: ${message}` });
    }

    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return sendError(request, reply, 'MALFORMED_JSON');
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendError(request, reply, 'PAYLOAD_TOO_LARGE');
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendError(request, reply, 'BAD_REQUEST', { detail: 'content-type must be application/json' });
    }
    if (error.statusCode === 429) return sendError(request, reply, 'RATE_LIMITED');
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return sendError(request, reply, 'BAD_REQUEST', { detail: error.message });
    }

    request.log.error({ err: error }, 'unhandled error');
    return sendError(request, reply, 'SYSTEM_ERROR');
  });
}
