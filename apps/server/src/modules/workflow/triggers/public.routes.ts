import {
  WORKFLOW_API_RUN_PATH,
  WORKFLOW_HOOK_PATH_PREFIX,
  WORKFLOW_SIGNATURE_HEADER,
  WORKFLOW_TRIGGER_LIMITS,
  workflowApiRunRequest,
  workflowRunStreams,
} from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { sha256 } from '../../../platform/crypto.ts';
import { AppError } from '../../../platform/http/app-error.ts';
import { answerFault, bodyRefusal, languageOf, refuse } from '../../../platform/http/public-answers.ts';
import { addressKey } from '../../../platform/rate-limit/address-key.ts';
import type { RateLimits } from '../../../platform/rate-limit/rate-limits.ts';
import type { LiveRuns } from '../runs/live-runs.ts';
import { presentSummary } from '../runs/run.presenters.ts';
import type { RunRepo } from '../runs/run.repo.ts';
import type { RunService } from '../runs/run.service.ts';
import { followRun, openRunStream } from '../runs/run-stream.ts';
import type { TriggerRepo } from './trigger.repo.ts';
import type { TriggerFire } from './trigger-fire.service.ts';

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
    const streaming = body.response_mode === 'streaming';
    const run = await deps.runs.startTriggered({
      spaceId: key.spaceId,
      workflowId: key.workflowId,
      userId: key.createdBy,
      inputs: body.inputs,
      query: body.query,
      trigger: 'api',
      endUser: body.user,
      // As in the editor: the stream opens without waiting for the run's row to be written (a row
      // the database refuses ends the stream with a storage error).
      announceFirst: streaming,
    });
    if (streaming) {
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
