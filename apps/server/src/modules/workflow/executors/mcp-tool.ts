import { formatMessage } from '@athena/contract';
import { type NodeExecutor, NodeFailure } from '@athena/workflow-engine';
import { AppError } from '../../../platform/http/app-error.ts';

/** A tool's answer as MCP gives it (`tools/call`), the parts the node reads. */
export interface McpToolResult {
  isError?: boolean;
  content?: Array<{ type: string; text?: string; mimeType?: string; uri?: string; resource?: unknown }>;
  structuredContent?: Record<string, unknown>;
}

/** The team's external MCP servers, as the node reaches them (the mcp-client module). */
export interface McpToolServices {
  /** The tool's cached input schema (null: the server or tool is not known in this space). */
  inputSchema(spaceId: string, serverId: string, tool: string): Promise<Record<string, unknown> | null>;
  call(
    spaceId: string,
    serverId: string,
    tool: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; timeoutMs: number; source: string; userId: string | null },
  ): Promise<McpToolResult>;
}

export interface McpToolDeps {
  mcp: McpToolServices;
  spaceId: string;
  userId: string | null;
}

const JSON_TYPES = new Set(['number', 'integer', 'boolean', 'object', 'array', 'null']);

/**
 * An argument's rendered text as the tool's schema wants it: text for a string (or no type), read
 * as JSON for a number, boolean, object or array; text that does not parse is a clear failure
 * rather than a guess.
 */
export function argumentValue(name: string, text: string, property: unknown): unknown {
  const declared = (property as { type?: unknown } | undefined)?.type;
  const types = (Array.isArray(declared) ? declared : [declared]).filter((t): t is string => typeof t === 'string');
  if (types.length === 0 || types.includes('string') || !types.some((t) => JSON_TYPES.has(t))) return text;
  try {
    return JSON.parse(text);
  } catch {
    throw new NodeFailure('WORKFLOW_NODE_FAILED', {
      detail: `argument "${name}" should be ${types.join(' or ')} written as JSON, not: ${text.slice(0, 200)}`,
    });
  }
}

/** The text parts of an answer as they are, the other parts named in brackets. */
export function textOf(result: McpToolResult): string {
  return (result.content ?? [])
    .map((part) => {
      if (part.type === 'text') return part.text ?? '';
      if (part.type === 'resource') {
        const resource = part.resource as { uri?: string; text?: string } | undefined;
        return resource?.text ?? `[resource ${resource?.uri ?? ''}]`;
      }
      if (part.type === 'resource_link') return `[resource ${part.uri ?? ''}]`;
      return `[${part.type}${part.mimeType ? ` ${part.mimeType}` : ''}]`;
    })
    .join('\n');
}

/**
 * Calls a tool of one of the team's external MCP servers (docs/mcp.md, "In workflows"): the server
 * is looked up in the run's space, the call goes through the outbound guard with the node's timeout
 * and the run's cancellation. A tool that answers with `isError` fails the node with its words, so
 * the node's error handling (retry, fail branch, default outputs) applies.
 */
export function mcpToolExecutor(deps: McpToolDeps): NodeExecutor<'mcp_tool'> {
  return async (ctx) => {
    const { data } = ctx.node;
    const schema = await deps.mcp.inputSchema(deps.spaceId, data.server_id, data.tool);
    if (!schema) {
      throw new NodeFailure('WORKFLOW_NODE_FAILED', {
        detail: `the MCP tool "${data.tool}" is not in this team's server list (removed, or not read yet)`,
      });
    }
    const properties = (schema.properties ?? {}) as Record<string, unknown>;
    const args: Record<string, unknown> = {};
    for (const argument of data.arguments) {
      const text = ctx.render(argument.value);
      // An argument that renders empty is not sent (an optional one left out), as the panel says.
      if (text === '') continue;
      args[argument.name] = argumentValue(argument.name, text, properties[argument.name]);
    }
    const inputs = { server_id: data.server_id, tool: data.tool, arguments: args };
    let result: McpToolResult;
    try {
      result = await deps.mcp.call(deps.spaceId, data.server_id, data.tool, args, {
        signal: ctx.signal,
        timeoutMs: data.timeout_ms,
        source: 'workflow',
        userId: deps.userId,
      });
    } catch (error) {
      if (error instanceof AppError) {
        // Node details are in English, like the other nodes' (the run record keeps them as they are).
        throw new NodeFailure('WORKFLOW_NODE_FAILED', { detail: formatMessage(error.key, 'en', error.params) });
      }
      throw error;
    }
    const text = textOf(result);
    if (result.isError) throw new NodeFailure('WORKFLOW_NODE_FAILED', { detail: text.slice(0, 2_000) });
    return { outputs: { text, structured: result.structuredContent ?? {} }, inputs };
  };
}
