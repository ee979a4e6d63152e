import { type AgentToolStep, parseAgentMcpToolRef } from '@athena/contract';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import { storableText } from '../../platform/db/storable.ts';
import { AppError } from '../../platform/http/app-error.ts';

/** A tool of an external MCP server, as the mcp-client module describes it from its cached list. */
export interface DescribedTool {
  serverId: string;
  serverName: string;
  tool: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** A tool's answer as MCP gives it (`tools/call`), the parts an agent reads. */
export interface ToolAnswer {
  isError?: boolean;
  content?: Array<{ type: string; text?: string; uri?: string; resource?: unknown }>;
  structuredContent?: Record<string, unknown>;
}

/** What the chat turn needs of the team's external MCP servers (the mcp-client module). */
export interface AgentMcpTools {
  describeTools(spaceId: string, refs: { serverId: string; tool: string }[]): Promise<DescribedTool[]>;
  callExternalTool(
    spaceId: string,
    serverId: string,
    tool: string,
    args: Record<string, unknown>,
    options: { signal?: AbortSignal; timeoutMs?: number; source?: string; userId?: string | null },
  ): Promise<ToolAnswer>;
}

/** Rounds of tool calls in one answer; the last round offers no tools, so the model must answer. */
export const MAX_TOOL_ROUNDS = 5;
/** Calls run in one round; more are answered "not run" (each may take a minute). */
export const MAX_CALLS_PER_ROUND = 8;
/** One tool call's time. */
const TOOL_TIMEOUT_MS = 60_000;
/** What a step keeps of the arguments and the answer, and what the model reads of the answer. */
const STEP_CHARS = 4_000;
const MODEL_READS_CHARS = 20_000;

/** At most `max` characters, storable (a tool's words may hold NUL) and never cut inside a character. */
const cut = (text: string, max: number) => (text.length > max ? `${storableText(text, max)}…` : storableText(text));

/** The function name the model calls: MCP names may hold what OpenAI's do not, and two servers may share one. */
function functionNames(tools: DescribedTool[]) {
  const taken = new Set<string>();
  return tools.map((tool) => {
    const base = tool.tool.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 60) || 'tool';
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base.slice(0, 60)}_${n}`;
    taken.add(name);
    return name;
  });
}

/** The text of a tool's answer: text parts as they are, others named in brackets. */
function answerText(answer: ToolAnswer) {
  const parts = (answer.content ?? []).map((part) => {
    if (part.type === 'text') return part.text ?? '';
    if (part.type === 'resource') return (part.resource as { text?: string } | undefined)?.text ?? '[resource]';
    return `[${part.type}${part.uri ? ` ${part.uri}` : ''}]`;
  });
  const text = parts.join('\n');
  if (text || !answer.structuredContent) return text;
  return JSON.stringify(answer.structuredContent);
}

/** The agent's MCP tools for one turn: what the model is offered, and running what it calls. */
export async function toolsForTurn(
  mcp: AgentMcpTools | undefined,
  turn: { spaceId: string; userId: string | null; refs: string[] },
) {
  const refs = turn.refs.flatMap((ref) => parseAgentMcpToolRef(ref) ?? []);
  const described = mcp && refs.length > 0 ? await mcp.describeTools(turn.spaceId, refs) : [];
  const names = functionNames(described);
  const byName = new Map(described.map((tool, i) => [names[i] as string, tool]));
  const offered: ChatCompletionTool[] = described.map((tool, i) => ({
    type: 'function',
    function: {
      name: names[i] as string,
      description: cut(`${tool.description} (MCP tool "${tool.tool}" of ${tool.serverName})`, 1_000),
      parameters: tool.inputSchema,
    },
  }));

  return {
    offered,

    /**
     * Runs one call the model made; answers the step (for the reader) and the text the model gets
     * back. Every failure is an `error` step whose words the model reads, so it can answer anyway.
     */
    /** The step the reader sees while the call runs. */
    started(call: ModelCall): AgentToolStep {
      const tool = byName.get(call.name);
      return {
        id: call.id,
        server_id: tool?.serverId ?? '',
        server_name: tool?.serverName ?? '',
        tool: tool?.tool ?? storableText(call.name, 200),
        arguments: cut(call.arguments, STEP_CHARS),
        status: 'running',
        output: '',
        duration_ms: null,
      };
    },

    /** A call past MAX_CALLS_PER_ROUND: not run, and the model is told why. */
    skipped(call: ModelCall) {
      const why = `not run: at most ${MAX_CALLS_PER_ROUND} tool calls a round`;
      return { step: { ...this.started(call), status: 'error' as const, output: why }, forModel: `Error: ${why}` };
    },

    async run(call: ModelCall, signal: AbortSignal) {
      const tool = byName.get(call.name);
      const step = this.started(call);
      const started = performance.now();
      let forModel: string;
      try {
        if (!tool || !mcp) throw new ToolRefused(`no tool named ${call.name}`);
        let args: unknown;
        try {
          args = call.arguments.trim() ? JSON.parse(call.arguments) : {};
        } catch {
          throw new ToolRefused('the arguments are not JSON');
        }
        if (typeof args !== 'object' || args === null || Array.isArray(args)) {
          throw new ToolRefused('the arguments are not a JSON object');
        }
        const answer = await mcp.callExternalTool(
          turn.spaceId,
          tool.serverId,
          tool.tool,
          args as Record<string, unknown>,
          { signal, timeoutMs: TOOL_TIMEOUT_MS, source: 'agent', userId: turn.userId },
        );
        forModel = answerText(answer);
        step.status = answer.isError ? 'error' : 'ok';
      } catch (error) {
        if (signal.aborted) throw error;
        forModel =
          error instanceof ToolRefused
            ? `Error: ${error.message}`
            : error instanceof AppError
              ? `Error: ${error.key}${Object.keys(error.params).length ? ` ${JSON.stringify(error.params)}` : ''}`
              : 'Error: the tool could not be called';
        step.status = 'error';
      }
      step.output = cut(forModel, STEP_CHARS);
      step.duration_ms = Math.round(performance.now() - started);
      return { step, forModel: cut(forModel, MODEL_READS_CHARS) };
    },
  };
}

/** A tool call as the model made it. */
type ModelCall = { id: string; name: string; arguments: string };

/** A call refused before it reached the server, in words the model reads. */
class ToolRefused extends Error {}

/** Tool calls as they stream in: pieces of each call by its index, joined when the round ends. */
export function toolCallCollector() {
  const calls = new Map<number, { id: string; name: string; arguments: string }>();
  return {
    add(deltas: Array<{ index: number; id?: string; function?: { name?: string; arguments?: string } }>) {
      for (const delta of deltas) {
        const call = calls.get(delta.index) ?? { id: '', name: '', arguments: '' };
        if (delta.id) call.id = delta.id;
        if (delta.function?.name) call.name += delta.function.name;
        if (delta.function?.arguments) call.arguments += delta.function.arguments;
        calls.set(delta.index, call);
      }
    },
    get size() {
      return calls.size;
    },
    /** The round's calls; a call the provider gave no id is named by its round and place. */
    done: (round: number) =>
      [...calls.entries()]
        .sort(([a], [b]) => a - b)
        .map(([index, call]) => ({ ...call, id: call.id || `call_${round}_${index}` })),
  };
}
