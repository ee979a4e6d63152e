import { type NodeExecutor, NodeFailure } from '@athena/workflow-engine';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { jsonObjectIn } from './json-reply.ts';
import { callModel, type ModelDeps } from './model-call.ts';

/**
 * The gateway's chat call does not pass `response_format` (not every OpenAI-compatible endpoint
 * takes it), so the schema goes into the prompt and the reply is read leniently.
 */
const jsonInstruction = (schema: Record<string, unknown>) =>
  `Answer with one JSON object only, no other text, that matches this JSON schema:\n${JSON.stringify(schema)}`;

/** An LLM node: its prompts rendered, the answer streamed to the caller, `structured` when asked for JSON. */
export function llmExecutor(deps: ModelDeps): NodeExecutor<'llm'> {
  return async (ctx) => {
    const { data } = ctx.node;
    const system = ctx.render(data.system_prompt);
    const user = ctx.render(data.user_prompt);
    const schema = data.json_schema;
    const systemText = schema ? [system, jsonInstruction(schema)].filter(Boolean).join('\n\n') : system;
    const messages: ChatCompletionMessageParam[] = [
      ...(systemText ? [{ role: 'system' as const, content: systemText }] : []),
      { role: 'user', content: user || ' ' },
    ];
    const reply = await callModel({
      deps,
      choice: data,
      nodeTitle: ctx.node.title || ctx.node.id,
      messages,
      signal: ctx.signal,
      onText: ctx.emitText,
    });
    const inputs = { model: reply.model, system_prompt: systemText, user_prompt: user };
    if (!schema) return { outputs: { text: reply.text, usage: reply.usage }, inputs, tokens: reply.tokens };
    const structured = jsonObjectIn(reply.text);
    if (!structured) {
      throw new NodeFailure(
        'WORKFLOW_NODE_FAILED',
        { detail: 'the model did not answer with a JSON object' },
        reply.text.slice(0, 500),
      );
    }
    return { outputs: { text: reply.text, structured, usage: reply.usage }, inputs, tokens: reply.tokens };
  };
}
