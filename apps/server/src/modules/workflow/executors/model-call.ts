import { NodeFailure } from '@athena/workflow-engine';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { AppError } from '../../../platform/http/app-error.ts';
import {
  classifyLlmError,
  detailOf,
  type LlmGateway,
  type ResolvedModelKey,
} from '../../../platform/llm/llm-gateway.ts';
import type { ModelKeyService } from '../../model-key/model-key.service.ts';

/** The model settings LLM, classifier and extractor nodes share (the contract's modelChoice). */
export interface ModelChoice {
  model_key_id: string | null;
  model: string;
  temperature: number;
  max_tokens: number | null;
}

export interface ModelDeps {
  modelKeys: Pick<ModelKeyService, 'resolveForUse'>;
  gateway: LlmGateway;
  spaceId: string;
  userId: string | null;
  /** The workflow whose run makes the call, and that run, for the fee records. */
  workflowId?: string;
  runId?: string;
}

/** Usage rows of workflow model calls say so, as the agent's say `agent.chat`. */
const USAGE_SOURCE = 'workflow.run';

/**
 * The node's key, or the space's default chat key when it names none. A key deleted since the
 * workflow was saved, or a space without a default, fails the node with the editor's own code.
 */
export async function keyFor(deps: ModelDeps, choice: ModelChoice, nodeTitle: string): Promise<ResolvedModelKey> {
  const key = await deps.modelKeys.resolveForUse(deps.spaceId, {
    id: choice.model_key_id ?? undefined,
    purpose: 'chat',
  });
  if (!key) throw new NodeFailure('WORKFLOW_MODEL_MISSING', { node: nodeTitle });
  return choice.model ? { ...key, version: choice.model } : key;
}

/** A vendor's failure as a node failure; an abort is left as it is for the engine to report. */
function failed(error: unknown, key: ResolvedModelKey, signal: AbortSignal): never {
  if (signal.aborted || error instanceof NodeFailure) throw error;
  // A platform model the team's balance cannot cover: the node says so in the billing's words.
  if (error instanceof AppError && error.key === 'MODEL_BALANCE_INSUFFICIENT') {
    throw new NodeFailure(error.key, error.params);
  }
  throw new NodeFailure('MODEL_CALL_FAILED', { detail: classifyLlmError(error) }, detailOf(error, key));
}

export interface ModelCall {
  deps: ModelDeps;
  choice: ModelChoice;
  nodeTitle: string;
  messages: ChatCompletionMessageParam[];
  signal: AbortSignal;
  /** Streams the text as it arrives; absent, the reply comes in one piece. */
  onText?: (chunk: string) => void;
}

/** Tokens of one call as the vendor reported them (zero when it reported none); an LLM node's `usage`. */
export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

function usageOf(reported: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | undefined) {
  const prompt = reported?.prompt_tokens ?? 0;
  const completion = reported?.completion_tokens ?? 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: reported?.total_tokens ?? prompt + completion,
  };
}

export interface ModelReply {
  text: string;
  /** Prompt plus completion tokens, the node's tokens. */
  tokens: number;
  usage: TokenUsage;
  model: string;
}

/** One chat call through the gateway (usage recorded there); returns the text and tokens spent. */
export async function callModel(call: ModelCall): Promise<ModelReply> {
  const { deps, choice, signal } = call;
  const key = await keyFor(deps, choice, call.nodeTitle);
  const params = {
    key,
    messages: call.messages,
    temperature: choice.temperature,
    maxTokens: choice.max_tokens ?? undefined,
    signal,
    usage: {
      spaceId: deps.spaceId,
      userId: deps.userId,
      source: USAGE_SOURCE,
      subject: deps.workflowId ? { kind: 'workflow', id: deps.workflowId, runId: deps.runId } : undefined,
    },
  };
  try {
    if (!call.onText) {
      const completion = await deps.gateway.chat(params);
      const usage = usageOf(completion.usage);
      return {
        text: completion.choices[0]?.message?.content ?? '',
        tokens: usage.prompt_tokens + usage.completion_tokens,
        usage,
        model: key.version,
      };
    }
    let text = '';
    let usage = usageOf(undefined);
    for await (const chunk of deps.gateway.chatStream(params)) {
      const delta = chunk.choices[0]?.delta?.content;
      if (delta) {
        text += delta;
        call.onText(delta);
      }
      if (chunk.usage) usage = usageOf(chunk.usage);
    }
    return { text, tokens: usage.prompt_tokens + usage.completion_tokens, usage, model: key.version };
  } catch (error) {
    failed(error, key, signal);
  }
}
