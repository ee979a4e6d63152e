import {
  ERRORS,
  type ErrorKey,
  formatMessage,
  isErrorKey,
  LANGUAGES,
  type Language,
  WORKFLOW_API_RUN_PATH,
  WORKFLOW_HOOK_PATH_PREFIX,
  WORKFLOW_SIGNATURE_HEADER,
  WORKFLOW_TRIGGER_LIMITS,
  workflowApiRunRequest,
  workflowRunStreams,
} from '@athena/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sha256 } from '../../../platform/crypto.ts';
import { AppError } from '../../../platform/http/app-error.ts';
import { addressKey } from '../../../platform/rate-limit/address-key.ts';
import type { RateLimits } from '../../../platform/rate-limit/rate-limits.ts';
import type { LiveRuns } from '../runs/live-runs.ts';
import { presentSummary } from '../runs/run.presenters.ts';
import type { RunRepo } from '../runs/run.repo.ts';
import type { RunService } from '../runs/run.service.ts';
import { followRun, openRunStream } from '../runs/run-stream.ts';
import type { TriggerRepo } from './trigger.repo.ts';
import type { TriggerFire } from './trigger-fire.service.ts';

/**
 * Callers of the public routes are programs, not our web client: they get the catalogue's code,
 * key and message in a plain JSON body with a real HTTP status (English unless a `language`
 * header asks for another).
 */
const languageOf = (request: FastifyRequest): Language => {
  const asked = request.headers.language;
  return typeof asked === 'string' && (LANGUAGES as readonly string[]).includes(asked) ? (asked as Language) : 'en';
};

/** Refusals before a run starts are the caller's to fix (400), an effective version missing a conflict (409). */
function statusOf(key: ErrorKey) {
  if (key === 'WORKFLOW_NOT_EFFECTIVE') return 409;
  const status = ERRORS[key].httpStatus;
  return status >= 400 ? status : 400;
}

function refuse(reply: FastifyReply, language: Language, key: ErrorKey, params: Record<string, string | number> = {}) {
  const detail = typeof params.detail === 'string' ? { detail: params.detail } : {};
  return reply
    .status(statusOf(key))
    .send({ code: ERRORS[key].code, key, msg: formatMessage(key, language, params), ...detail });
}

/** The first thing wrong with a body, named by its field as the envelope routes do ("response_mode: …"). */
function bodyRefusal(issue: { path: PropertyKey[]; message: string } | undefined) {
  const message = issue?.message ?? '';
  const key: ErrorKey = isErrorKey(message) ? message : 'BAD_REQUEST';
  const field = issue?.path.map(String).join('.') || 'body';
  return { key, detail: `${field}: ${key === 'BAD_REQUEST' ? message : key}` };
}

/** Faults outside the handlers' own answers (a body the parser refuses, too large) in the same shape. */
function answerFault(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
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
  request.log.error({ err: error }, 'workflow trigger call failed');
  return reply
    .status(500)
    .send({ code: ERRORS.SYSTEM_ERROR.code, key: 'SYSTEM_ERROR', msg: formatMessage('SYSTEM_ERROR', language) });
}

export interface PublicRouteDeps {
  repo: TriggerRepo;
  runs: RunService;
  live: LiveRuns;
  runRepo: RunRepo;
  fire: TriggerFire;
  rateLimits: RateLimits;
  /** Calls each workflow API key may make per minute (WORKFLOW_API_CALLS_PER_MINUTE). */
  callsPerMinute: number;
  /** Webhook calls one address (IPv6: /64) may make per minute (WORKFLOW_WEBHOOK_PER_ADDRESS_PER_MINUTE). */
  webhookCallsPerAddressPerMinute: number;
}

/**
 * `POST /v1/workflows/run` with a workflow API key (Dify's request shape), and
 * `POST /hooks/workflows/<hookId>` for signed webhooks. Both run the effective version only.
 */
export async function registerPublicTriggerRoutes(app: FastifyInstance, deps: PublicRouteDeps) {
  const perKey = { name: 'workflow-api-key', limit: deps.callsPerMinute, windowSeconds: 60 };
  const perAddress = {
    name: 'workflow-webhook-address',
    limit: deps.webhookCallsPerAddressPerMinute,
    windowSeconds: 60,
  };

  app.post(WORKFLOW_API_RUN_PATH, { schema: { hide: true }, errorHandler: answerFault }, async (request, reply) => {
    const language = languageOf(request);
    const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim();
    const key = bearer && bearer.length <= 200 ? await deps.repo.useKey(sha256(bearer)) : null;
    if (!bearer || !key) return refuse(reply, language, 'WORKFLOW_API_KEY_INVALID');
    // Counted once the key is known, so made-up keys cannot fill the table.
    const verdict = await deps.rateLimits.hit([{ rule: perKey, subject: key.keyHash }]);
    if (!verdict.allowed) {
      reply.header('retry-after', String(verdict.retryAfterSeconds));
      return refuse(reply, language, 'RATE_LIMITED');
    }
    const parsed = workflowApiRunRequest.safeParse(request.body ?? {});
    if (!parsed.success) {
      const { key: refusal, detail } = bodyRefusal(parsed.error.issues[0]);
      return refuse(reply, language, refusal, { detail });
    }
    const body = parsed.data;
    const run = await deps.runs.startTriggered({
      spaceId: key.spaceId,
      workflowId: key.workflowId,
      userId: key.createdBy,
      inputs: body.inputs,
      query: body.query,
      trigger: 'api',
      endUser: body.user,
    });
    if (body.response_mode === 'streaming') {
      const stream = openRunStream(reply, workflowRunStreams.run, language);
      try {
        await followRun({ live: deps.live, repo: deps.runRepo }, run.id, 0, stream);
      } catch (error) {
        request.log.error({ err: error, run: run.id }, 'workflow API stream failed');
      } finally {
        stream.end();
      }
      return reply;
    }
    const summary = presentSummary(await run.done, language);
    return reply.send({
      run_id: summary.run_id,
      result: summary.result,
      outputs: summary.outputs,
      answer: summary.answer,
      error: summary.failure?.error ?? null,
      elapsed_ms: summary.elapsed_ms,
      tokens: summary.tokens,
    });
  });

  // The signature covers the exact bytes sent, so this scope reads every body raw (and capped).
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: WORKFLOW_TRIGGER_LIMITS.webhookBodyBytes },
      (_request, body, done) => done(null, body),
    );
    scope.setErrorHandler(answerFault);
    // Before anything else, the body included: every call is otherwise a lookup, a decryption and
    // an HMAC over up to 256 KB for whoever sends it, signed or not.
    scope.addHook('onRequest', async (request) => {
      const verdict = await deps.rateLimits.hit([{ rule: perAddress, subject: addressKey(request.ip) }]);
      if (!verdict.allowed) throw new AppError('RATE_LIMITED', {}, verdict.retryAfterSeconds);
    });
    scope.post<{ Params: { hookId: string } }>(
      `${WORKFLOW_HOOK_PATH_PREFIX}:hookId`,
      { schema: { hide: true } },
      async (request, reply) => {
        const signature = request.headers[WORKFLOW_SIGNATURE_HEADER];
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const answer = await deps.fire.acceptWebhook(
          request.params.hookId,
          typeof signature === 'string' ? signature : undefined,
          raw,
        );
        return reply.status(202).send(answer);
      },
    );
  });
}
