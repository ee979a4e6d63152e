import type { Agent, agentRoutes, RouteBody } from '@athena/contract';

/** The editor's form: strings where the API has null, so inputs stay controlled. */
export interface EditorValues {
  name: string;
  avatar_url: string;
  description: string;
  system_prompt: string;
  opening_message: string;
  suggested_questions: string[];
  /** '' means the space's default chat key. */
  model_key_id: string;
  temperature: number;
  max_tokens: number | null;
  /** Attached knowledge bases; answers cite their sources. */
  knowledge_ids: string[];
  /** Tools of the team's external MCP servers (`<server id>:<tool name>`) the agent may call. */
  mcp_tools: string[];
}

export const MAX_SUGGESTIONS = 5;

export function toValues(agent: Agent): EditorValues {
  return {
    name: agent.name,
    avatar_url: agent.avatar_url ?? '',
    description: agent.description,
    system_prompt: agent.system_prompt,
    opening_message: agent.opening_message,
    suggested_questions: agent.suggested_questions,
    model_key_id: agent.model_key_id ?? '',
    temperature: agent.params.temperature,
    max_tokens: agent.params.max_tokens,
    knowledge_ids: agent.attachments.knowledge_ids,
    mcp_tools: agent.attachments.mcp_tools ?? [],
  };
}

/** The full update body (update replaces every field); blank questions are left out. */
export function toUpdateBody(agent: Agent, values: EditorValues): RouteBody<typeof agentRoutes.update> {
  return {
    id: agent.id,
    name: values.name.trim(),
    avatar_url: values.avatar_url.trim() || null,
    description: values.description.trim(),
    system_prompt: values.system_prompt,
    opening_message: values.opening_message,
    suggested_questions: values.suggested_questions.map((q) => (q ?? '').trim()).filter(Boolean),
    model_key_id: values.model_key_id || null,
    params: { temperature: values.temperature ?? agent.params.temperature, max_tokens: values.max_tokens ?? null },
    attachments: {
      ...agent.attachments,
      knowledge_ids: [...new Set(values.knowledge_ids ?? [])],
      mcp_tools: [...new Set(values.mcp_tools ?? [])],
    },
  };
}

/** Whether the form differs from the saved agent in anything that would be saved. */
export function isDirty(agent: Agent, values: EditorValues): boolean {
  const saved = toUpdateBody(agent, toValues(agent));
  const now = toUpdateBody(agent, values);
  return JSON.stringify(saved) !== JSON.stringify(now);
}
