import { formatMessage, isErrorKey, type Language, MCP_TOOL_KINDS } from '@athena/contract';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../platform/http/app-error.ts';
import type { AskAgent } from '../agent/index.ts';
import type { KnowledgeModule } from '../knowledge/index.ts';
import type { WorkflowModule } from '../workflow/index.ts';
import { unavailability } from './mcp.presenters.ts';
import type { McpRepo, Target, ToolRow } from './mcp.repo.ts';
import { agentArguments, firstIssue, inputSchemaOf, knowledgeArguments } from './tool-schemas.ts';

export type ToolCalls = ReturnType<typeof createToolCalls>;

/** The caller of a tool: the token (its team) that authenticated the request. */
export interface Caller {
  tokenId: string;
  spaceId: string;
  /** Who created the token: workflow runs are recorded for them. */
  createdBy: string | null;
  language: Language;
}

/** A tools/call result as MCP defines it. */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface CallOptions {
  signal: AbortSignal;
  /** Present when the client sent a progressToken: reports a workflow's finished nodes. */
  progress?: (progress: number, total: number | undefined, message: string) => void;
}

/** A failure the tool reports to the client as its result (MCP's isError), not as a protocol error. */
class ToolFailure extends Error {}

const textResult = (text: string, structured?: Record<string, unknown>): ToolResult => ({
  content: [{ type: 'text', text }],
  ...(structured ? { structuredContent: structured } : {}),
});

const readable = (segment: { question: string; answer: string; content: string }) =>
  segment.question ? `Q: ${segment.question}\nA: ${segment.answer}` : segment.content;

/**
 * What the MCP endpoint lists and calls: each exposed knowledge base, effective workflow and agent
 * of the token's team. Every call is logged (tool, token, duration, the error when it failed).
 */
export function createToolCalls(deps: {
  repo: McpRepo;
  retrieval: Pick<KnowledgeModule['retrieval'], 'retrieve'>;
  runs: Pick<WorkflowModule['runs'], 'startTriggered'>;
  ask: AskAgent;
  log: FastifyBaseLogger;
}) {
  const { repo } = deps;

  const messageOf = (error: unknown, language: Language) => {
    if (error instanceof AppError) return formatMessage(error.key, language, error.params);
    if (error instanceof ToolFailure) return error.message;
    return formatMessage('SYSTEM_ERROR', language);
  };

  async function knowledge(caller: Caller, tool: ToolRow, target: Target, args: unknown): Promise<ToolResult> {
    const parsed = knowledgeArguments.safeParse(args ?? {});
    if (!parsed.success) throw new AppError('MCP_ARGUMENTS_INVALID', { detail: firstIssue(parsed.error) });
    const own = target.retrieval;
    const result = await deps.retrieval.retrieve({
      spaceId: caller.spaceId,
      userId: null,
      knowledgeIds: [target.id],
      query: parsed.data.query,
      settings: own && { ...own, top_k: parsed.data.top_k ?? own.top_k },
    });
    const items = result.items.map((hit) => ({
      text: readable(hit.segment),
      score: Math.round(hit.score * 1000) / 1000,
      source: {
        knowledge_id: target.id,
        knowledge_name: target.name,
        file_name: hit.segment.file_name,
        unit_id: hit.segment.unit_id,
        segment_id: hit.segment.id,
        position: hit.segment.position,
      },
    }));
    const text =
      items.length === 0
        ? 'No matching segments.'
        : items
            .map((item, index) => `[${index + 1}] ${item.source.file_name} (score ${item.score})\n${item.text}`)
            .join('\n\n');
    return textResult(text, { tool: tool.name, mode: result.mode, items });
  }

  async function workflow(caller: Caller, target: Target, args: unknown, options: CallOptions): Promise<ToolResult> {
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
      throw new AppError('MCP_ARGUMENTS_INVALID', { detail: 'arguments: expected an object' });
    }
    const run = await deps.runs.startTriggered({
      spaceId: caller.spaceId,
      workflowId: target.id,
      userId: caller.createdBy,
      inputs: (args ?? {}) as Record<string, unknown>,
      trigger: 'api',
      endUser: `mcp:${caller.tokenId}`,
    });
    // The reason travels on: a server shutting down fails the run as stopped, not as cancelled.
    const stop = () => run.controller.abort(options.signal.reason ?? new Error('the MCP client cancelled the call'));
    if (options.signal.aborted) stop();
    options.signal.addEventListener('abort', stop, { once: true });
    const total = target.graph?.nodes.length;
    const titles = new Map<string, string>();
    let finished = 0;
    const listener = (stored: { event: { event: string; data: unknown } }) => {
      const data = stored.event.data as { execution_id?: string; title?: string; node_id?: string };
      if (stored.event.event === 'node_started' && data.execution_id) {
        titles.set(data.execution_id, data.title || data.node_id || '');
      } else if (stored.event.event === 'node_finished' && data.execution_id) {
        finished += 1;
        const title = titles.get(data.execution_id) ?? data.node_id ?? '';
        options.progress?.(finished, total && finished <= total ? total : undefined, `${title} finished`);
      }
    };
    if (options.progress) run.listeners.add(listener);
    try {
      const summary = await run.done;
      const structured = {
        run_id: summary.run_id,
        result: summary.result,
        outputs: summary.outputs,
        answer: summary.answer,
        elapsed_ms: Math.round(summary.elapsed_ms),
      };
      if (summary.failure) {
        const { code, params, detail } = summary.failure.error;
        const message = isErrorKey(code) ? formatMessage(code, caller.language, params) : detail || code;
        const reason = summary.failure.reason === 'cancelled' ? 'cancelled' : 'failed';
        throw new ToolFailure(`The workflow run ${reason}: ${message}`);
      }
      const text = summary.answer || JSON.stringify(summary.outputs);
      return textResult(text, structured);
    } finally {
      run.listeners.delete(listener);
      options.signal.removeEventListener('abort', stop);
    }
  }

  async function agent(caller: Caller, target: Target, args: unknown, options: CallOptions): Promise<ToolResult> {
    const parsed = agentArguments.safeParse(args ?? {});
    if (!parsed.success) throw new AppError('MCP_ARGUMENTS_INVALID', { detail: firstIssue(parsed.error) });
    const answer = await deps.ask({
      spaceId: caller.spaceId,
      agentId: target.id,
      question: parsed.data.question,
      signal: options.signal,
    });
    if (answer.status !== 'complete') {
      throw new ToolFailure(
        answer.error ?? (answer.status === 'stopped' ? 'The call was cancelled.' : 'The answer failed.'),
      );
    }
    const sources = answer.citations.map(
      (citation) => `[${citation.marker}] ${citation.file_name}: ${citation.snippet}`,
    );
    const text = sources.length > 0 ? `${answer.answer}\n\nSources:\n${sources.join('\n')}` : answer.answer;
    return textResult(text, { answer: answer.answer, citations: answer.citations });
  }

  return {
    /** The tools a client of this team sees now: exposed, and their targets still there and runnable. */
    async list(spaceId: string) {
      const rows = await repo.tools(spaceId);
      // One query per kind, whatever the number of tools.
      const targets = new Map<string, Target>();
      for (const kind of MCP_TOOL_KINDS) {
        const ids = rows.filter((row) => row.kind === kind).map((row) => row.targetId);
        for (const target of await repo.targetsOf(spaceId, kind, ids)) targets.set(`${kind}:${target.id}`, target);
      }
      const tools = [];
      for (const row of rows) {
        const target = targets.get(`${row.kind}:${row.targetId}`) ?? null;
        if (unavailability(row, target)) continue;
        tools.push({
          name: row.name,
          description: row.description,
          inputSchema: inputSchemaOf(row.kind, target?.graph),
        });
      }
      return tools;
    },

    /** The tool of this name in the caller's team, or null (the endpoint answers an unknown tool). */
    find: (spaceId: string, name: string) => repo.toolNamed(spaceId, name),

    /** Runs one tool; every failure becomes an isError result with a message for the model. */
    async call(caller: Caller, tool: ToolRow, args: unknown, options: CallOptions): Promise<ToolResult> {
      const started = performance.now();
      let result: ToolResult;
      try {
        const target = await repo.target(caller.spaceId, tool.kind, tool.targetId);
        const why = unavailability(tool, target);
        if (why || !target) throw new AppError(why?.key ?? 'MCP_TOOL_TARGET_GONE', why?.params ?? { name: tool.name });
        if (tool.kind === 'knowledge') result = await knowledge(caller, tool, target, args);
        else if (tool.kind === 'workflow') result = await workflow(caller, target, args, options);
        else result = await agent(caller, target, args, options);
      } catch (error) {
        if (!(error instanceof AppError || error instanceof ToolFailure)) {
          deps.log.error({ err: error, tool: tool.id }, 'MCP tool call failed');
        }
        result = { content: [{ type: 'text', text: messageOf(error, caller.language) }], isError: true };
      }
      const error = result.isError ? (result.content[0]?.text ?? '').slice(0, 2_000) : '';
      // Written while the answer goes out: the client does not wait for the log. The embedded engine
      // runs statements in the order they are sent, so a log read after the answer finds it; with
      // PostgreSQL's several connections it may miss it by a moment.
      void repo
        .recordCall({
          spaceId: caller.spaceId,
          toolId: tool.id,
          toolName: tool.name,
          tokenId: caller.tokenId,
          ok: !result.isError,
          error,
          durationMs: Math.round(performance.now() - started),
        })
        .catch((caught) => deps.log.warn({ err: caught, tool: tool.id }, 'MCP call not logged'));
      return result;
    },
  };
}
