import {
  type ErrorKey,
  formatMessage,
  type Language,
  type McpCall,
  type McpToken,
  type McpTool,
} from '@athena/contract';
import type { CallRow, Target, TokenRow, ToolRow } from './mcp.repo.ts';
import { inputSchemaOf } from './tool-schemas.ts';

const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

export function toToken(row: TokenRow, now: Date): McpToken {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    created_at: row.createdAt.toISOString(),
    created_by: row.createdBy ? { id: row.createdBy, name: row.creatorName ?? '' } : null,
    expires_at: iso(row.expiresAt),
    last_used_at: iso(row.lastUsedAt),
    revoked: row.revokedAt !== null,
    active: row.revokedAt === null && (row.expiresAt === null || row.expiresAt > now),
  };
}

/** Why a tool is not offered to clients now, or null when it is (docs/mcp.md, "Availability"). */
export function unavailability(
  tool: Pick<ToolRow, 'kind' | 'name'>,
  target: Target | null,
): { key: ErrorKey; params: Record<string, string> } | null {
  if (!target) return { key: 'MCP_TOOL_TARGET_GONE', params: { name: tool.name } };
  if (tool.kind !== 'workflow') return null;
  if (!target.effective || !target.graph) return { key: 'MCP_WORKFLOW_NOT_EFFECTIVE', params: {} };
  if (target.locked) return { key: 'MCP_WORKFLOW_LOCKED', params: { name: target.name } };
  return null;
}

export function toTool(
  row: ToolRow,
  target: Target | null,
  usage: { calls: number; errors: number; last: Date | null } | undefined,
  language: Language,
): McpTool {
  const why = unavailability(row, target);
  return {
    id: row.id,
    kind: row.kind,
    target_id: row.targetId,
    target_name: target?.name ?? '',
    name: row.name,
    description: row.description,
    input_schema: inputSchemaOf(row.kind, target?.graph),
    available: why === null,
    unavailable_reason: why ? formatMessage(why.key, language, why.params) : '',
    calls: usage?.calls ?? 0,
    errors: usage?.errors ?? 0,
    last_called_at: iso(usage?.last),
    created_at: row.createdAt.toISOString(),
  };
}

export function toCall(row: CallRow): McpCall {
  return {
    id: row.id,
    tool_id: row.toolId,
    tool_name: row.toolName,
    token_id: row.tokenId,
    token_name: row.tokenName ?? '',
    token_prefix: row.tokenPrefix ?? '',
    ok: row.ok,
    error: row.error,
    duration_ms: row.durationMs,
    created_at: row.createdAt.toISOString(),
  };
}
