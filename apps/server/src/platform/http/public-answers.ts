import { ERRORS, type ErrorKey, formatMessage, isErrorKey, LANGUAGES, type Language } from '@athena/contract';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './app-error.ts';

/**
 * Callers of the public routes (workflow API and webhooks, chat ingest) are programs, not our web client: they get the catalogue's code,
 * key and message in a plain JSON body with a real HTTP status (English unless a `language`
 * header asks for another).
 */
export const languageOf = (request: FastifyRequest): Language => {
  const asked = request.headers.language;
  return typeof asked === 'string' && (LANGUAGES as readonly string[]).includes(asked) ? (asked as Language) : 'en';
};

/** Refusals before a run starts are the caller's to fix (400), an effective version missing a conflict (409). */
function statusOf(key: ErrorKey) {
  if (key === 'WORKFLOW_NOT_EFFECTIVE') return 409;
  const status = ERRORS[key].httpStatus;
  return status >= 400 ? status : 400;
}

export function refuse(
  reply: FastifyReply,
  language: Language,
  key: ErrorKey,
  params: Record<string, string | number> = {},
) {
  const detail = typeof params.detail === 'string' ? { detail: params.detail } : {};
  return reply
    .status(statusOf(key))
    .send({ code: ERRORS[key].code, key, msg: formatMessage(key, language, params), ...detail });
}

/** The first thing wrong with a body, named by its field as the envelope routes do ("response_mode: …"). */
export function bodyRefusal(issue: { path: PropertyKey[]; message: string } | undefined) {
  const message = issue?.message ?? '';
  const key: ErrorKey = isErrorKey(message) ? message : 'BAD_REQUEST';
  const field = issue?.path.map(String).join('.') || 'body';
  return { key, detail: `${field}: ${key === 'BAD_REQUEST' ? message : key}` };
}

/** Faults outside the handlers' own answers (a body the parser refuses, too large) in the same shape. */
export function answerFault(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const language = languageOf(request);
  if (error instanceof AppError) {
    if (error.retryAfterSeconds) reply.header('retry-after', String(error.retryAfterSeconds));
    return refuse(reply, language, error.key, error.params);
  }
  if (error.statusCode === 413) return refuse(reply, language, 'PAYLOAD_TOO_LARGE');
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return refuse(reply, language, 'MALFORMED_JSON');
  }
  if (error.statusCode && error.statusCode < 500) return refuse(reply, language, 'BAD_REQUEST');
  request.log.error({ err: error }, 'public call failed');
  return reply
    .status(500)
    .send({ code: ERRORS.SYSTEM_ERROR.code, key: 'SYSTEM_ERROR', msg: formatMessage('SYSTEM_ERROR', language) });
}
