import { createRequire } from 'node:module';
import type { KeyTestResult, ModelPurpose, TestFailureKind } from '@athena/contract';
import type { FastifyBaseLogger } from 'fastify';
import type OpenAI from 'openai';
import type { ChatCompletionCreateParamsBase, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { isBlockedError } from './outbound-guard.ts';
import { feeOf, holdFor, type ModelPricing, promptTokenCeiling, type UsageCharging } from './pricing.ts';

/** A decrypted key, ready for one call; never logged. */
export interface ResolvedModelKey {
  id: string | null;
  baseUrl: string;
  apiKey: string;
  /** The model id the endpoint expects. */
  version: string;
  purpose: ModelPurpose;
  /** Set for a platform model: the call is charged to the team's balance at these prices. */
  pricing?: ModelPricing;
}

/** One model call as the gateway reports it; the module that owns usage stores it. */
export interface UsageReport extends UsageContext {
  modelKeyId: string | null;
  model: string;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  outcome: 'ok' | 'error' | 'cancelled';
  errorKind?: string;
  platformModelId?: string;
  inputPrice?: number;
  outputPrice?: number;
  feeMillifen: number;
}

export interface UsageContext {
  spaceId: string;
  userId: string | null;
  source: string;
  /**
   * What the call is for (an agent, a workflow, a knowledge base), for the fee records; a workflow's
   * call also names its run, so a fee record opens the run that made it.
   */
  subject?: { kind: string; id: string; runId?: string };
}

export interface ChatParams {
  key: ResolvedModelKey;
  messages: ChatCompletionMessageParam[];
  tools?: ChatCompletionCreateParamsBase['tools'];
  temperature?: number;
  maxTokens?: number;
  /** Structured output: `{ type: 'json_schema', json_schema: { name, schema, strict } }` (or JSON mode). */
  responseFormat?: ChatCompletionCreateParamsBase['response_format'];
  /** Aborts the call (e.g. the browser went away). */
  signal?: AbortSignal;
  usage: UsageContext;
  /** A hold taken beforehand with `reserve` (so a refusal reached the caller before streaming). */
  holdId?: number | null;
}

export type LlmGateway = ReturnType<typeof createLlmGateway>;

const load = createRequire(import.meta.url);
let openaiLibrary: typeof OpenAI | null = null;

/**
 * The `openai` client library, loaded at the first model call: ~13 MB of memory a server may not
 * need for a long time (every client and error class comes from this one copy).
 */
function openai(): typeof OpenAI {
  openaiLibrary ??= (load('openai') as { OpenAI: typeof OpenAI }).OpenAI;
  return openaiLibrary;
}

/** The HTTP status of an error the model's endpoint answered with, if it is one. */
export function upstreamStatus(error: unknown): number | undefined {
  return openaiLibrary && error instanceof openaiLibrary.APIError ? error.status : undefined;
}

/** Maps a client error to what a person can act on. */
export function classifyLlmError(error: unknown): TestFailureKind {
  if (isBlockedError(error)) return 'blocked_address';
  // Without the library loaded, no call has been made that could have failed in its way.
  const OpenAI = openaiLibrary;
  if (OpenAI && error instanceof OpenAI.APIConnectionTimeoutError) return 'timeout';
  if (OpenAI && error instanceof OpenAI.APIConnectionError) return 'unreachable';
  if (OpenAI && error instanceof OpenAI.APIError) {
    if (error.status === 401 || error.status === 403) return 'auth';
    if (error.status === 404 || error.code === 'model_not_found') return 'model_not_found';
    if (error.status === 429) return 'rate_limited';
    if (error.status !== undefined && error.status >= 500) return 'server_error';
  }
  if (error instanceof Error && error.name === 'AbortError') return 'timeout';
  return 'bad_response';
}

/** The vendor's message without anything that could echo the key back (ours or one like it). */
export function detailOf(error: unknown, key: ResolvedModelKey) {
  const message = error instanceof Error ? error.message : String(error);
  return message
    .replaceAll(key.apiKey, '***')
    .replace(/\bsk-[\w*.-]+/gi, 'sk-***')
    .slice(0, 300);
}

/**
 * The one place every feature calls a model: OpenAI-compatible chat (streaming or not, tools) and
 * embeddings through the official `openai` client, which retries 429/5xx with backoff; requests
 * go through the outbound-URL guard; each call writes one usage row.
 */
export function createLlmGateway(deps: {
  /** Stores one usage row per call and returns its id (the gateway never writes tables itself). */
  recordUsage: (report: UsageReport) => Promise<number>;
  /** Charges platform-model calls to the team's balance (billing's side; see pricing.ts). */
  charging?: UsageCharging;
  fetch: typeof fetch;
  log: FastifyBaseLogger;
  timeoutMs?: number;
  maxRetries?: number;
  testTimeoutMs?: number;
}) {
  // Clients are reused per endpoint and key: building one per call showed up in time-to-first-token.
  const clients = new Map<string, OpenAI>();
  const clientFor = (key: ResolvedModelKey, overrides: { timeout?: number; maxRetries?: number } = {}) => {
    const timeout = overrides.timeout ?? deps.timeoutMs ?? 120_000;
    const maxRetries = overrides.maxRetries ?? deps.maxRetries ?? 2;
    const cacheKey = `${key.baseUrl}\n${key.apiKey}\n${timeout}\n${maxRetries}`;
    let client = clients.get(cacheKey);
    if (!client) {
      if (clients.size >= 500) clients.clear();
      const Client = openai();
      client = new Client({ apiKey: key.apiKey, baseURL: key.baseUrl, fetch: deps.fetch, timeout, maxRetries });
      clients.set(cacheKey, client);
    }
    return client;
  };

  async function record(
    usage: UsageContext,
    key: ResolvedModelKey,
    result: {
      started: number;
      inputTokens?: number;
      outputTokens?: number;
      outcome: 'ok' | 'error' | 'cancelled';
      errorKind?: string;
      holdId?: number | null;
    },
  ) {
    const tokens = { input: result.inputTokens ?? 0, output: result.outputTokens ?? 0 };
    const feeMillifen = key.pricing ? feeOf(key.pricing, tokens) : 0;
    try {
      const usageId = await deps.recordUsage({
        spaceId: usage.spaceId,
        userId: usage.userId,
        source: usage.source,
        subject: usage.subject,
        modelKeyId: key.pricing ? null : key.id,
        model: key.version,
        inputTokens: tokens.input,
        outputTokens: tokens.output,
        latencyMs: Math.round(performance.now() - result.started),
        outcome: result.outcome,
        errorKind: result.errorKind,
        platformModelId: key.pricing?.platformModelId,
        inputPrice: key.pricing?.inputPrice,
        outputPrice: key.pricing?.outputPrice,
        feeMillifen,
      });
      if (key.pricing) {
        await charging().settle(result.holdId ?? null, {
          spaceId: usage.spaceId,
          usageId,
          feeMillifen,
          model: key.version,
        });
      }
    } catch (error) {
      // Losing a usage row must not fail the person's call; it is logged for reconciliation.
      deps.log.error(
        { err: error, usage, alarm: key.pricing ? 'usage-not-charged' : undefined },
        'could not record LLM usage',
      );
    }
  }

  const charging = () => {
    if (!deps.charging) throw new Error('a platform model was resolved but nothing charges for it');
    return deps.charging;
  };

  /** Sets money aside for a priced call; null for the team's own key (nothing to hold). */
  async function reserve(
    key: ResolvedModelKey,
    usage: UsageContext,
    messages: ChatCompletionMessageParam[],
    maxTokens?: number,
  ) {
    if (!key.pricing) return null;
    return charging().hold(usage.spaceId, holdFor(key.pricing, messages, maxTokens));
  }

  const failure = (params: { signal?: AbortSignal }, error: unknown) =>
    params.signal?.aborted
      ? { outcome: 'cancelled' as const }
      : { outcome: 'error' as const, errorKind: classifyLlmError(error) };

  return {
    reserve,

    async chat(params: ChatParams) {
      const started = performance.now();
      const holdId = params.holdId ?? (await reserve(params.key, params.usage, params.messages, params.maxTokens));
      try {
        const completion = await clientFor(params.key).chat.completions.create(
          {
            model: params.key.version,
            messages: params.messages,
            tools: params.tools,
            temperature: params.temperature,
            max_tokens: params.maxTokens,
            response_format: params.responseFormat,
          },
          { signal: params.signal },
        );
        await record(params.usage, params.key, {
          started,
          inputTokens: completion.usage?.prompt_tokens,
          outputTokens: completion.usage?.completion_tokens,
          outcome: 'ok',
          holdId,
        });
        return completion;
      } catch (error) {
        await record(params.usage, params.key, { started, ...failure(params, error), holdId });
        throw error;
      }
    },

    /** Yields the stream's chunks; usage is recorded (and charged) when it ends, fails or is cancelled. */
    async *chatStream(params: ChatParams) {
      const started = performance.now();
      const holdId = params.holdId ?? (await reserve(params.key, params.usage, params.messages, params.maxTokens));
      let inputTokens: number | undefined;
      let outputTokens: number | undefined;
      let streamedChars = 0;
      try {
        const stream = await clientFor(params.key).chat.completions.create(
          {
            model: params.key.version,
            messages: params.messages,
            tools: params.tools,
            temperature: params.temperature,
            max_tokens: params.maxTokens,
            response_format: params.responseFormat,
            stream: true,
            stream_options: { include_usage: true },
          },
          { signal: params.signal },
        );
        for await (const chunk of stream) {
          // Leaving the loop closes the upstream request; do it as soon as the caller is gone.
          if (params.signal?.aborted) throw params.signal.reason ?? new Error('aborted');
          if (chunk.usage) {
            inputTokens = chunk.usage.prompt_tokens;
            outputTokens = chunk.usage.completion_tokens;
          }
          streamedChars += chunk.choices[0]?.delta?.content?.length ?? 0;
          yield chunk;
        }
        // The client library ends the iteration quietly when aborted; a cut-short stream is no success.
        if (params.signal?.aborted) throw params.signal.reason ?? new Error('aborted');
        await record(params.usage, params.key, { started, inputTokens, outputTokens, outcome: 'ok', holdId });
      } catch (error) {
        // Cut short before the vendor said what it counted: what streamed was still generated (and
        // billed to us), estimated at a token a character with the prompt's ceiling (docs/billing.md).
        const estimated =
          outputTokens === undefined && streamedChars > 0
            ? { inputTokens: promptTokenCeiling(params.messages), outputTokens: streamedChars }
            : { inputTokens, outputTokens };
        await record(params.usage, params.key, { started, ...estimated, ...failure(params, error), holdId });
        throw error;
      }
    },

    async embed(params: { key: ResolvedModelKey; input: string[]; signal?: AbortSignal; usage: UsageContext }) {
      const started = performance.now();
      try {
        const result = await clientFor(params.key).embeddings.create(
          { model: params.key.version, input: params.input },
          { signal: params.signal },
        );
        await record(params.usage, params.key, { started, inputTokens: result.usage?.prompt_tokens, outcome: 'ok' });
        return result.data.map((item) => item.embedding);
      } catch (error) {
        await record(params.usage, params.key, { started, ...failure(params, error) });
        throw error;
      }
    },

    /**
     * The smallest real call for the key's purpose: a one-token chat, one embedding, or (rerank has
     * no common protocol) listing models. No retries and a short budget: the person is waiting.
     */
    async testKey(key: ResolvedModelKey, usage: UsageContext): Promise<KeyTestResult> {
      const started = performance.now();
      const client = clientFor(key, { timeout: deps.testTimeoutMs ?? 15_000, maxRetries: 0 });
      try {
        let tokens = { input: 0, output: 0 };
        if (key.purpose === 'chat') {
          const reply = await client.chat.completions.create({
            model: key.version,
            messages: [{ role: 'user', content: 'ping' }],
            max_tokens: 1,
          });
          if (!Array.isArray(reply.choices)) throw new Error('the endpoint did not answer like a chat model');
          tokens = { input: reply.usage?.prompt_tokens ?? 0, output: reply.usage?.completion_tokens ?? 0 };
        } else if (key.purpose === 'embedding') {
          const reply = await client.embeddings.create({ model: key.version, input: 'ping' });
          if (!Array.isArray(reply.data?.[0]?.embedding)) throw new Error('the endpoint did not return an embedding');
          tokens = { input: reply.usage?.prompt_tokens ?? 0, output: 0 };
        } else {
          await client.models.list();
        }
        const latency = Math.round(performance.now() - started);
        await record(usage, key, { started, inputTokens: tokens.input, outputTokens: tokens.output, outcome: 'ok' });
        return { ok: true, latency_ms: latency, error_kind: null, detail: null };
      } catch (error) {
        const kind = classifyLlmError(error);
        await record(usage, key, { started, outcome: 'error', errorKind: kind });
        return { ok: false, latency_ms: null, error_kind: kind, detail: detailOf(error, key) };
      }
    },
  };
}
