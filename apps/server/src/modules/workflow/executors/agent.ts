import { type NodeExecutor, NodeFailure } from '@athena/workflow-engine';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { AgentLookup } from '../../agent/index.ts';
import type { KnowledgeDeps } from './knowledge.ts';
import { callModel, type ModelDeps } from './model-call.ts';

/**
 * An agent node: an existing agent of the space answers `query` with its own system prompt, model
 * key, temperature and knowledge bases, through the gateway; nothing is kept as a conversation.
 * Knowledge is given as numbered sources in a system message, as the agent's chat does, without
 * the chat's citations (a workflow reads the text).
 */
export function agentExecutor(
  deps: ModelDeps & Pick<KnowledgeDeps, 'retrieval'> & { findAgent: AgentLookup },
): NodeExecutor<'agent'> {
  return async (ctx) => {
    const { data } = ctx.node;
    const agent = await deps.findAgent(deps.spaceId, data.agent_id);
    if (!agent) throw new NodeFailure('WORKFLOW_NODE_FAILED', { detail: 'the agent does not exist any more' });
    const query = ctx.render(data.query);
    const hits =
      agent.attachments.knowledge_ids.length > 0 && query.trim()
        ? await deps.retrieval.retrieveForAgent({
            spaceId: deps.spaceId,
            userId: deps.userId,
            knowledgeIds: agent.attachments.knowledge_ids,
            query,
          })
        : [];
    const sources = hits.map((hit, index) => `[${index + 1}] ${hit.segment.content || hit.segment.answer}`);
    const messages: ChatCompletionMessageParam[] = [
      ...(agent.systemPrompt ? [{ role: 'system' as const, content: agent.systemPrompt }] : []),
      ...(sources.length > 0
        ? [{ role: 'system' as const, content: `Answer from these sources:\n${sources.join('\n')}` }]
        : []),
      { role: 'user', content: query || ' ' },
    ];
    const reply = await callModel({
      deps,
      choice: {
        model_key_id: agent.modelKeyId,
        model: '',
        temperature: agent.params.temperature,
        max_tokens: agent.params.max_tokens,
      },
      nodeTitle: ctx.node.title || ctx.node.id,
      messages,
      signal: ctx.signal,
      onText: ctx.emitText,
    });
    return {
      outputs: { text: reply.text },
      inputs: { agent: agent.name, query, sources: hits.length },
      tokens: reply.tokens,
    };
  };
}
