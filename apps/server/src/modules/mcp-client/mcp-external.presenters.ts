import type { McpExternalServer, McpExternalTool } from '@athena/contract';
import type { ExternalServerRow, ExternalUsage } from './mcp-external.repo.ts';
import type { CachedExternalTool } from './mcp-external.schema.ts';

const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

/** A server as the page sees it: header names only, never their values. */
export function toExternalServer(
  row: ExternalServerRow,
  usage: ExternalUsage | undefined,
  headerValuesSet: ReadonlySet<string>,
): McpExternalServer {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    transport: row.transport,
    enabled: row.enabled,
    headers: row.headerNames.map((name) => ({ name, set: headerValuesSet.has(name) })),
    tools_count: row.tools.length,
    tools_read_at: iso(row.toolsReadAt),
    last_error: row.lastError,
    last_error_at: iso(row.lastErrorAt),
    calls: usage?.calls ?? 0,
    errors: usage?.errors ?? 0,
    last_called_at: iso(usage?.lastCalledAt),
    created_by: row.createdBy ? { id: row.createdBy, name: row.creatorName ?? '' } : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function toExternalTool(tool: CachedExternalTool): McpExternalTool {
  return { name: tool.name, title: tool.title, description: tool.description, input_schema: tool.inputSchema };
}
