import {
  type AgentToolStep,
  type agentStreams,
  type ChatMessage,
  type Citation,
  type Language,
  type StreamEvent,
  streamError,
} from '@athena/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { ChatCompletionChunk, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { AppError } from '../../platform/http/app-error.ts';
import { isShutdown } from '../../platform/http/open-streams.ts';
import {
  classifyLlmError,
  type LlmGateway,
  type ResolvedModelKey,
  type UsageContext,
} from '../../platform/llm/llm-gateway.ts';
import type { ModelKeyService } from '../model-key/model-key.service.ts';
import type { AgentRow } from './agent.service.ts';
import {
  type AgentMcpTools,
  MAX_CALLS_PER_ROUND,
  MAX_TOOL_ROUNDS,
  toolCallCollector,
  toolsForTurn,
} from './agent-tools.ts';
import type { ChatChannel, ChatOwner, ChatStore } from './conversation.repo.ts';
import { type FindSources, findCitations, questionOf, withSources } from './grounding.ts';

/** What a turn tells its route, named and typed as the contract's chat stream. */
export type ChatTurnEvent = StreamEvent<typeof agentStreams.chat>;

export type ChatTurnCommand = ReturnType<typeof createChatTurnCommand>;

export interface ChatTurnDeps {
  modelKeys: Pick<ModelKeyService, 'resolveForUse'>;
  gateway: LlmGateway;
  /** Retrieval from the agent's attached knowledge bases; absent, answers carry no sources. */
  findSources?: FindSources;
  log: FastifyBaseLogger;
  /** Where the playground and the share page keep conversations; API calls keep nothing. */
  store: ChatStore;
  /** The team's external MCP servers, for agents with MCP tools; absent, no tools are offered. */
  mcpTools?: AgentMcpTools;
}

/** A turn that may run: everything that can fail for the caller has been checked. */
export interface PreparedTurn {
  agent: AgentRow;
  key: ResolvedModelKey;
  prompt: ChatCompletionMessageParam[];
  temperature: number;
  maxTokens: number | undefined;
  usage: UsageContext;
  /** Money set aside for a platform model's call (null with the team's own key). */
  holdId: number | null;
  /** A kept turn's conversation and the answer it streams into. */
  kept?: {
    conversationId: string;
    answerId: string;
    /** Writes the turn's rows if opening it has not (a first question); called once, after the first token. */
    persist: () => Promise<void>;
  };
}

export interface TurnOutput {
  signal: AbortSignal;
  /** The language of the error event's message. */
  language: Language;
  emit: (event: ChatTurnEvent) => void;
  /** Every chunk as the model sent it, for a route that forwards the model's own format. */
  onChunk?: (chunk: ChatCompletionChunk) => void;
}

/**
 * How often a streaming answer writes what has arrived (and so proves its process alive). An answer
 * whose last write is older than ANSWER_STALE_MS lost its process (see markInterrupted).
 */
const PROGRESS_MS = 5_000;
export const ANSWER_STALE_MS = 30_000;

/** Who pays for the call in the usage records, by where the question came from. */
const USAGE_SOURCE = { playground: 'agent.chat', share: 'agent.share', api: 'agent.api' } as const;

/**
 * One chat turn, the same for the playground, the share page and the OpenAI-compatible API: the
 * agent's model key, its knowledge sources, the streamed model call, the stored answer and its
 * citations. `open`/`openApi` do everything that can fail for the caller (so a route can still
 * answer it in its own error format); `run` then streams and never throws for a model failure.
 */
export function createChatTurnCommand(deps: ChatTurnDeps) {
  async function keyFor(agent: AgentRow) {
    const key = await deps.modelKeys.resolveForUse(agent.spaceId, {
      id: agent.modelKeyId ?? undefined,
      purpose: 'chat',
    });
    if (!key) throw new AppError('NO_MODEL_KEY');
    return key;
  }

  const sourcesFor = (turn: PreparedTurn) =>
    findCitations(
      deps.findSources,
      {
        spaceId: turn.agent.spaceId,
        userId: turn.usage.userId,
        knowledgeIds: turn.agent.attachments.knowledge_ids,
        question: questionOf(turn.prompt),
      },
      deps.log,
    );

  return {
    /** A question (or a regenerate) in the playground or on a share page; records the question. */
    async open(input: {
      agent: AgentRow;
      owner: ChatOwner;
      channel: ChatChannel;
      conversationId?: string;
      message?: string;
      regenerate: boolean;
    }): Promise<PreparedTurn> {
      const { agent } = input;
      const key = await keyFor(agent);
      const usage = {
        spaceId: agent.spaceId,
        userId: input.owner.userId ?? null,
        source: USAGE_SOURCE[input.channel],
        subject: { kind: 'agent', id: agent.id },
      };
      const maxTokens = agent.params.max_tokens ?? undefined;
      // Before anything is stored: a balance that cannot cover a platform model refuses the turn.
      // The hold counts the system prompt, the question and the longest answer (history and
      // sources are added later; a call that costs more is collected from the balance after it).
      const estimate: ChatCompletionMessageParam[] = [
        { role: 'system', content: agent.systemPrompt ?? '' },
        { role: 'user', content: input.message ?? '' },
      ];
      const holdId = await deps.gateway.reserve(key, usage, estimate, maxTokens);
      const opened = await deps.store.openTurn(input);
      return {
        agent,
        key,
        prompt: opened.prompt,
        temperature: agent.params.temperature,
        maxTokens,
        usage,
        holdId,
        kept: { conversationId: opened.conversationId, answerId: opened.answerId, persist: opened.persist },
      };
    },

    /** An API call: the agent's system prompt, then the caller's messages; nothing is kept. */
    async openApi(input: {
      agent: AgentRow;
      messages: ChatCompletionMessageParam[];
      temperature?: number;
      maxTokens?: number;
    }): Promise<PreparedTurn> {
      const { agent } = input;
      const key = await keyFor(agent);
      const prompt: ChatCompletionMessageParam[] = [
        ...(agent.systemPrompt ? [{ role: 'system' as const, content: agent.systemPrompt }] : []),
        ...input.messages,
      ];
      const maxTokens = input.maxTokens ?? agent.params.max_tokens ?? undefined;
      const usage = {
        spaceId: agent.spaceId,
        userId: null,
        source: USAGE_SOURCE.api,
        subject: { kind: 'agent', id: agent.id },
      };
      return {
        agent,
        key,
        prompt,
        temperature: input.temperature ?? agent.params.temperature,
        maxTokens,
        usage,
        holdId: await deps.gateway.reserve(key, usage, prompt, maxTokens),
      };
    },

    /**
     * Streams the answer to `out` (and, for a kept turn, into the database). What streamed before a
     * failure or a stop is kept; a stop (the signal) marks the answer "stopped" and ends the events.
     * A server shutting down (the signal's reason says so) marks it "interrupted" and tells the
     * client, which is still listening.
     */
    async run(turn: PreparedTurn, out: TurnOutput) {
      const { kept } = turn;
      if (kept) out.emit({ event: 'start', data: { conversation_id: kept.conversationId, message_id: kept.answerId } });
      let text = '';
      let tokens = { input: 0, output: 0 };
      let status: ChatMessage['status'] = 'complete';
      // Only a kept turn (playground, share page) writes its rows; an API turn keeps nothing. A
      // first question's rows are written once its first token (or tool call) has gone out, so in a
      // burst of new chats no first token waits behind the writes' work for a core.
      let persisted: Promise<void> | undefined;
      const persist = () => {
        if (!kept) return;
        persisted ??= kept.persist();
        // Awaited below; this only keeps an early failure from being reported as unhandled.
        persisted.catch(() => {});
      };
      // A client that left reads nothing more; one the server is leaving still gets its last events.
      const listening = () => !out.signal.aborted || isShutdown(out.signal);
      let saving: Promise<void> | undefined;
      const saveProgress = () => {
        if (!kept || saving) return;
        saving = deps.store
          .saveProgress(kept.answerId, text)
          .catch((caught) => deps.log.warn({ err: caught, agent: turn.agent.id }, 'answer progress not saved'))
          .finally(() => {
            saving = undefined;
          });
      };
      // From the start, retrieval included, so a slow one never looks like a dead process. Rows not
      // yet written (a first question before its first token) are simply not matched.
      const progress = kept ? setInterval(saveProgress, PROGRESS_MS) : undefined;
      let citations: Citation[] = [];
      const steps: AgentToolStep[] = [];
      try {
        const found = await sourcesFor(turn);
        citations = found.citations;
        const { sources } = found;
        if (citations.length > 0) out.emit({ event: 'citations', data: { items: citations } });
        const tools = await toolsForTurn(deps.mcpTools, {
          spaceId: turn.agent.spaceId,
          userId: turn.usage.userId,
          refs: turn.agent.attachments.mcp_tools,
        });
        let messages = withSources(turn.prompt, sources);
        // Each round the model may call tools; their answers go back to it and it goes on. The last
        // round offers none, so a model that keeps calling still answers.
        for (let round = 0; round <= MAX_TOOL_ROUNDS; round++) {
          const offer = tools.offered.length > 0 && round < MAX_TOOL_ROUNDS;
          const calls = toolCallCollector();
          for await (const chunk of deps.gateway.chatStream({
            key: turn.key,
            messages,
            tools: offer ? tools.offered : undefined,
            temperature: turn.temperature,
            maxTokens: turn.maxTokens,
            signal: out.signal,
            usage: turn.usage,
            // The first call uses the hold taken before the turn; later rounds take their own.
            holdId: round === 0 ? turn.holdId : undefined,
          })) {
            const choice = chunk.choices[0];
            if (choice?.delta?.tool_calls) calls.add(choice.delta.tool_calls);
            // An API caller sees the answer, not the calls this server makes for it.
            if (calls.size === 0) out.onChunk?.(chunk);
            const delta = choice?.delta?.content;
            if (delta) {
              text += delta;
              out.emit({ event: 'delta', data: { text: delta } });
              persist();
            }
            if (chunk.usage) {
              tokens = {
                input: tokens.input + chunk.usage.prompt_tokens,
                output: tokens.output + chunk.usage.completion_tokens,
              };
            }
          }
          if (calls.size === 0) break;
          const made = calls.done(round);
          const answered: ChatCompletionMessageParam[] = [];
          for (const [index, call] of made.entries()) {
            out.emit({ event: 'tool', data: tools.started(call) });
            // The answer's rows exist before its steps are saved with it.
            persist();
            const { step, forModel } =
              index < MAX_CALLS_PER_ROUND ? await tools.run(call, out.signal) : tools.skipped(call);
            steps.push(step);
            out.emit({ event: 'tool', data: step });
            answered.push({ role: 'tool', tool_call_id: call.id, content: forModel });
          }
          messages = [
            ...messages,
            {
              role: 'assistant',
              content: null,
              tool_calls: made.map((call) => ({
                id: call.id,
                type: 'function' as const,
                function: { name: call.name, arguments: call.arguments },
              })),
            },
            ...answered,
          ];
        }
        out.emit({ event: 'usage', data: { input_tokens: tokens.input, output_tokens: tokens.output } });
      } catch (caught) {
        if (out.signal.aborted) {
          status = isShutdown(out.signal) ? 'interrupted' : 'stopped';
        } else {
          status = 'error';
          const kind = classifyLlmError(caught);
          deps.log.warn({ err: caught, agent: turn.agent.id, source: turn.usage.source }, 'chat model call failed');
          out.emit({
            event: 'error',
            data: { ...streamError('MODEL_CALL_FAILED', out.language, { detail: kind }), kind },
          });
        }
      } finally {
        clearInterval(progress);
      }
      if (kept) {
        try {
          persist();
          await persisted;
          await deps.store.saveAnswer(kept.answerId, {
            content: text,
            status,
            error: status === 'error' ? 'MODEL_CALL_FAILED' : null,
            citations,
            steps,
            tokens,
          });
        } catch (caught) {
          // The person has read the answer; the stream still ends and says it was not kept.
          deps.log.error({ err: caught, agent: turn.agent.id }, 'chat answer could not be saved');
          status = 'error';
          if (listening()) {
            out.emit({ event: 'error', data: { ...streamError('SYSTEM_ERROR', out.language), kind: 'storage' } });
          }
        }
      }
      if (status === 'interrupted') {
        out.emit({ event: 'error', data: { ...streamError('SERVER_RESTARTING', out.language), kind: 'shutdown' } });
      }
      if (listening()) {
        out.emit({ event: 'end', data: { status: status === 'complete' ? 'complete' : 'error' } });
      }
      return { status, text };
    },

    /** The whole answer in one piece (an API call without `stream`); a model failure throws. */
    async complete(turn: PreparedTurn) {
      const { sources } = await sourcesFor(turn);
      return deps.gateway.chat({
        key: turn.key,
        messages: withSources(turn.prompt, sources),
        temperature: turn.temperature,
        maxTokens: turn.maxTokens,
        usage: turn.usage,
        holdId: turn.holdId,
      });
    },
  };
}
