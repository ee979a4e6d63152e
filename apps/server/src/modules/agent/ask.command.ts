import type { Citation } from '@athena/contract';
import type { AgentService } from './agent.service.ts';
import type { ChatTurnCommand } from './chat-turn.command.ts';

export type AskAgent = ReturnType<typeof createAskAgent>;

/**
 * One question to an agent of a space, answered whole with its citations and nothing kept: the
 * MCP server's agent tools. The same chat turn as the OpenAI-compatible API (billed as `agent.api`).
 */
export function createAskAgent(deps: { agents: Pick<AgentService, 'findForChat'>; chatTurn: ChatTurnCommand }) {
  return async (params: { spaceId: string; agentId: string; question: string; signal: AbortSignal }) => {
    const agent = await deps.agents.findForChat(params.spaceId, params.agentId);
    const turn = await deps.chatTurn.openApi({ agent, messages: [{ role: 'user', content: params.question }] });
    let citations: Citation[] = [];
    let error: string | null = null;
    const result = await deps.chatTurn.run(turn, {
      signal: params.signal,
      language: 'en',
      emit: (event) => {
        if (event.event === 'citations') citations = event.data.items;
        if (event.event === 'error') error = event.data.msg;
      },
    });
    return { status: result.status, answer: result.text, citations, error: error as string | null };
  };
}
