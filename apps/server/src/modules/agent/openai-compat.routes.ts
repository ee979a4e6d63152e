import { agentStreams, ERRORS, formatMessage, isErrorKey, type OpenAIError } from '@athena/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sha256 } from '../../platform/crypto.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { openEventStream } from '../../platform/http/sse.ts';
import { upstreamStatus } from '../../platform/llm/llm-gateway.ts';
import type { RateLimits } from '../../platform/rate-limit/rate-limits.ts';
import type { ChatTurnCommand, PreparedTurn } from './chat-turn.command.ts';
import type { PublishService } from './publish.service.ts';

const completions = agentStreams.completions;

const openAIError = (message: string, code: string, type = 'invalid_request_error'): OpenAIError => ({
  error: { message, type, code, param: null },
});
const UPSTREAM_FAILED = openAIError('The upstream model failed.', 'upstream_error', 'server_error');
/** The last line of a stream whose model failed; without `param`, exactly as clients have always read it. */
const STREAM_FAILED: OpenAIError = {
  error: { message: 'The upstream model failed.', type: 'server_error', code: 'upstream_error' },
};

/** The last line of a stream the server stopped (a restart) before the model finished. */
const STREAM_INTERRUPTED: OpenAIError = {
  error: { message: formatMessage('SERVER_RESTARTING', 'en'), type: 'server_error', code: 'server_restarting' },
};

/** Errors in OpenAI's own shape and status codes, which its client libraries understand. */
const refuse = (reply: FastifyReply, status: number, error: OpenAIError) => reply.status(status).send(error);

/**
 * What fails outside the handler's own answers (a body the JSON parser refuses, too large, of
 * another type; an unexpected fault) is answered in OpenAI's shape too: its clients cannot read
 * the envelope.
 */
function answerFault(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // A business refusal travels as HTTP 200 in the envelope; OpenAI's clients need a 4xx.
  const known = error instanceof AppError ? Math.max(ERRORS[error.key].httpStatus, 400) : null;
  const status = known ?? (error.statusCode && error.statusCode < 500 ? error.statusCode : 500);
  if (status >= 500) {
    request.log.error({ err: error }, 'API call failed');
    return refuse(reply, 500, openAIError('The server failed.', 'server_error', 'server_error'));
  }
  const message = error instanceof AppError ? formatMessage(error.key, 'en', error.params) : error.message;
  return refuse(reply, status, openAIError(message, 'invalid_body'));
}

/**
 * An OpenAI-compatible `/v1/chat/completions` in front of published agents: `model` is the agent's
 * public id, the bearer token one of its API keys. The turn is the same chat-turn command as the
 * playground's; this route only speaks OpenAI's format around it (the contract's `completions`).
 */
export function registerOpenAICompatRoutes(
  app: FastifyInstance,
  deps: {
    publish: PublishService;
    chatTurn: ChatTurnCommand;
    rateLimits: RateLimits;
    /** Calls each API key may make per minute (AGENT_API_CALLS_PER_MINUTE). */
    callsPerMinute: number;
  },
) {
  const turns = deps.chatTurn;
  const perKey = { name: 'agent-api-key', limit: deps.callsPerMinute, windowSeconds: 60 };

  app.post(completions.path, { schema: { hide: true }, errorHandler: answerFault }, async (request, reply) => {
    const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim();
    const agent = bearer ? await deps.publish.agentForKey(bearer) : null;
    if (!bearer || !agent) return refuse(reply, 401, openAIError('Invalid or revoked API key.', 'invalid_api_key'));
    // Counted only once the key is known, so made-up keys cannot fill the table; by the key's
    // hash, which is how the database knows it.
    const verdict = await deps.rateLimits.hit([{ rule: perKey, subject: sha256(bearer) }]);
    if (!verdict.allowed) {
      // OpenAI's own answer to a request-rate limit; its clients wait for Retry-After and retry.
      reply.header('retry-after', String(verdict.retryAfterSeconds));
      const message = `${formatMessage('RATE_LIMITED', 'en')} Try again in ${verdict.retryAfterSeconds} s.`;
      return refuse(reply, 429, openAIError(message, 'rate_limit_exceeded', 'requests'));
    }

    const parsed = completions.body.safeParse(request.body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]?.message ?? 'invalid body';
      // A rule that names a catalogue key is told in words (OpenAI clients show `message` as is).
      const message = isErrorKey(issue) ? formatMessage(issue, 'en') : issue;
      return refuse(reply, 400, openAIError(message, 'invalid_body'));
    }
    const body = parsed.data;
    if (body.model !== agent.publicId) {
      const message = `The model '${body.model}' does not exist for this key.`;
      return refuse(reply, 404, openAIError(message, 'model_not_found'));
    }
    let turn: PreparedTurn;
    try {
      turn = await turns.openApi({
        agent,
        messages: body.messages,
        temperature: body.temperature,
        maxTokens: body.max_tokens,
      });
    } catch (error) {
      if (!(error instanceof AppError && error.key === 'NO_MODEL_KEY')) throw error;
      const noKey = openAIError('The agent has no model key configured.', 'no_model_key', 'server_error');
      return refuse(reply, 503, noKey);
    }

    if (!body.stream) {
      try {
        return reply.send({ ...(await turns.complete(turn)), model: agent.publicId });
      } catch (error) {
        const status = upstreamStatus(error) || 502;
        request.log.warn({ err: error }, 'API call failed');
        return refuse(reply, status >= 500 ? 502 : status, UPSTREAM_FAILED);
      }
    }
    // The answer cites [n] markers like the playground's; API callers get no citation objects.
    const stream = openEventStream(reply, completions);
    try {
      await turns.run(turn, {
        signal: stream.signal,
        language: 'en',
        onChunk: (chunk) => stream.send('chunk', { ...chunk, model: agent.publicId }),
        emit: (event) => {
          if (event.event === 'error') {
            const restarting = event.data.code === ERRORS.SERVER_RESTARTING.code;
            stream.send('error', restarting ? STREAM_INTERRUPTED : STREAM_FAILED);
          } else if (event.event === 'end' && event.data.status === 'complete') stream.done();
        },
      });
    } catch (error) {
      request.log.error({ err: error, agent: agent.id }, 'API chat turn failed after its stream opened');
    } finally {
      stream.end();
    }
  });
}
