import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { z } from 'zod';
import { type LlmGateway, upstreamStatus } from '../../platform/llm/llm-gateway.ts';
import type { ModelKeyService } from '../model-key/model-key.service.ts';
import { type FindSources, findCitations, questionOf, withSources } from './grounding.ts';
import type { PublishService } from './publish.service.ts';

const messageSchema = z.object({
  role: z.enum(['system', 'user', 'assistant']),
  content: z.string().max(100_000),
});
const bodySchema = z.object({
  model: z.string().min(1),
  messages: z.array(messageSchema).min(1).max(200),
  stream: z.boolean().optional(),
  temperature: z.number().min(0).max(2).optional(),
  max_tokens: z.number().int().min(1).max(32_000).optional(),
});

/** Errors in OpenAI's own shape and status codes, which its client libraries understand. */
function openAIError(
  reply: FastifyReply,
  status: number,
  message: string,
  code: string,
  type = 'invalid_request_error',
) {
  return reply.status(status).send({ error: { message, type, code, param: null } });
}

/**
 * An OpenAI-compatible `/v1/chat/completions` in front of published agents: `model` is the agent's
 * public id, the bearer token one of its API keys. The agent's system prompt comes first; the
 * caller's messages follow. Streams in the same chunk format the official clients parse.
 */
export function registerOpenAICompatRoutes(
  app: FastifyInstance,
  deps: { publish: PublishService; modelKeys: ModelKeyService; gateway: LlmGateway; findSources?: FindSources },
) {
  app.post('/v1/chat/completions', { schema: { hide: true } }, async (request, reply) => {
    const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim();
    const agent = bearer ? await deps.publish.agentForKey(bearer) : null;
    if (!agent) return openAIError(reply, 401, 'Invalid or revoked API key.', 'invalid_api_key');

    const parsed = bodySchema.safeParse(request.body);
    if (!parsed.success)
      return openAIError(reply, 400, parsed.error.issues[0]?.message ?? 'invalid body', 'invalid_body');
    const body = parsed.data;
    if (body.model !== agent.publicId) {
      return openAIError(reply, 404, `The model '${body.model}' does not exist for this key.`, 'model_not_found');
    }
    const key = await deps.modelKeys.resolveForUse(agent.spaceId, {
      id: agent.modelKeyId ?? undefined,
      purpose: 'chat',
    });
    if (!key) return openAIError(reply, 503, 'The agent has no model key configured.', 'no_model_key', 'server_error');

    const prompt: ChatCompletionMessageParam[] = [
      ...(agent.systemPrompt ? [{ role: 'system' as const, content: agent.systemPrompt }] : []),
      ...body.messages,
    ];
    // The answer cites [n] markers like the playground's; API callers get no citation objects.
    const { sources } = await findCitations(
      deps.findSources,
      {
        spaceId: agent.spaceId,
        userId: null,
        knowledgeIds: agent.attachments.knowledge_ids,
        question: questionOf(prompt),
      },
      request.log,
    );
    const messages = withSources(prompt, sources);
    const params = {
      key,
      messages,
      temperature: body.temperature ?? agent.params.temperature,
      maxTokens: body.max_tokens ?? agent.params.max_tokens ?? undefined,
      usage: { spaceId: agent.spaceId, userId: null, source: 'agent.api' },
    };

    try {
      if (!body.stream) {
        const completion = await deps.gateway.chat(params);
        return reply.send({ ...completion, model: agent.publicId });
      }
      const controller = new AbortController();
      reply.hijack();
      const res = reply.raw;
      res.on('close', () => {
        if (!res.writableFinished) controller.abort();
      });
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
      try {
        for await (const chunk of deps.gateway.chatStream({ ...params, signal: controller.signal })) {
          res.write(`data: ${JSON.stringify({ ...chunk, model: agent.publicId })}\n\n`);
        }
        res.write('data: [DONE]\n\n');
      } catch (error) {
        if (!controller.signal.aborted) {
          request.log.warn({ err: error }, 'streamed API call failed');
          res.write(
            `data: ${JSON.stringify({ error: { message: 'The upstream model failed.', type: 'server_error', code: 'upstream_error' } })}\n\n`,
          );
        }
      }
      res.end();
    } catch (error) {
      const status = upstreamStatus(error) || 502;
      request.log.warn({ err: error }, 'API call failed');
      return openAIError(
        reply,
        status >= 500 ? 502 : status,
        'The upstream model failed.',
        'upstream_error',
        'server_error',
      );
    }
  });
}
