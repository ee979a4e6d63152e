import { can, MCP_LIMITS, MCP_PATH, MCP_TOOL_KINDS, type McpToolKind } from '@athena/contract';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import { isUuid, newToken, sha256 } from '../../platform/crypto.ts';
import { isUniqueViolationOf } from '../../platform/db/sql.ts';
import { AppError } from '../../platform/http/app-error.ts';
import type { AuditEvent, AuditRepo } from '../team/index.ts';
import { toCall, toToken, toTool } from './mcp.presenters.ts';
import type { McpRepo, Target } from './mcp.repo.ts';
import { inputSchemaOf, suggestedName } from './tool-schemas.ts';

export type McpAdmin = ReturnType<typeof createMcpAdmin>;

/** What an MCP token starts with, so a leaked one is recognisable (secret scanners, logs). */
export const TOKEN_PREFIX = 'athmcp_';

/**
 * The MCP server page's calls (docs/mcp.md): every member may look; turning the server on, tokens
 * and exposed tools are `mcp.manage` (creator and admins). Every id is looked up in the caller's space.
 */
export function createMcpAdmin(deps: { repo: McpRepo; now: () => Date; audit: AuditRepo }) {
  const { repo, now } = deps;
  /** Who turned the server on, made or revoked a token, exposed a tool: the team's audit log. */
  const record = (ctx: AuthContext, spaceId: string, action: AuditEvent['action'], details: AuditEvent['details']) =>
    deps.audit.record({ spaceId, actorId: ctx.userId, action, details });

  const settingsOf = async (ctx: AuthContext, spaceId: string) => ({
    enabled: await repo.enabled(spaceId),
    endpoint_path: `${MCP_PATH}/${spaceId}`,
    can_manage: can(ctx.space?.role ?? 3, 'mcp.manage'),
  });

  async function presentTools(ctx: AuthContext, spaceId: string) {
    const rows = await repo.tools(spaceId);
    const usage = await repo.usage(spaceId);
    const targets = new Map<string, Target>();
    for (const kind of MCP_TOOL_KINDS) {
      const ids = rows.filter((row) => row.kind === kind).map((row) => row.targetId);
      for (const target of await repo.targetsOf(spaceId, kind, ids)) targets.set(`${kind}:${target.id}`, target);
    }
    return rows.map((row) =>
      toTool(row, targets.get(`${row.kind}:${row.targetId}`) ?? null, usage.get(row.id), ctx.language),
    );
  }

  async function checkName(spaceId: string, name: string, exceptId?: string) {
    const holder = await repo.toolNamed(spaceId, name);
    if (holder && holder.id !== exceptId) throw new AppError('MCP_TOOL_NAME_TAKEN', { name });
  }

  /** A free name for a new tool: the suggestion, then with -2, -3… */
  async function freeName(spaceId: string, wanted: string) {
    for (let n = 1; n < 100; n++) {
      const name = n === 1 ? wanted : `${wanted.slice(0, 60)}-${n}`;
      if (!(await repo.toolNamed(spaceId, name))) return name;
    }
    throw new AppError('MCP_TOOL_NAME_TAKEN', { name: wanted });
  }

  return {
    async settings(ctx: AuthContext) {
      const space = authorize(ctx, 'member.view');
      return settingsOf(ctx, space.id);
    },

    async setEnabled(ctx: AuthContext, enabled: boolean) {
      const space = authorize(ctx, 'mcp.manage');
      await repo.setEnabled(space.id, enabled, ctx.userId);
      await record(ctx, space.id, 'mcp.server', { enabled });
      return settingsOf(ctx, space.id);
    },

    async createToken(ctx: AuthContext, body: { name: string; expires_at?: string | null }) {
      const space = authorize(ctx, 'mcp.manage');
      const expiresAt = body.expires_at ? new Date(body.expires_at) : null;
      if (expiresAt) {
        const ahead = expiresAt.getTime() - now().getTime();
        if (!(ahead > 0) || ahead > MCP_LIMITS.maxTokenDays * 86_400_000)
          throw new AppError('MCP_TOKEN_EXPIRY_INVALID');
      }
      if ((await repo.activeTokens(space.id)) >= MCP_LIMITS.tokensPerTeam) {
        throw new AppError('MCP_TOO_MANY_TOKENS', { max: MCP_LIMITS.tokensPerTeam });
      }
      const token = `${TOKEN_PREFIX}${newToken()}`;
      const id = await repo.insertToken({
        spaceId: space.id,
        name: body.name,
        tokenHash: sha256(token),
        prefix: token.slice(0, TOKEN_PREFIX.length + 6),
        createdBy: ctx.userId,
        expiresAt,
      });
      const [row] = await repo.listTokens(space.id, id);
      await record(ctx, space.id, 'mcp.token_create', {
        name: body.name,
        expires_at: expiresAt?.toISOString() ?? null,
      });
      return { ...toToken(row, now()), token };
    },

    async listTokens(ctx: AuthContext) {
      const space = authorize(ctx, 'member.view');
      const at = now();
      return { items: (await repo.listTokens(space.id)).map((row) => toToken(row, at)) };
    },

    async revokeToken(ctx: AuthContext, id: string) {
      const space = authorize(ctx, 'mcp.manage');
      if (!isUuid(id)) throw new AppError('NOT_FOUND');
      const revoked = await repo.revokeToken(space.id, id);
      await record(ctx, space.id, 'mcp.token_revoke', { name: revoked.name });
      return null;
    },

    async candidates(ctx: AuthContext) {
      const space = authorize(ctx, 'member.view');
      const exposed = new Map((await repo.tools(space.id)).map((tool) => [`${tool.kind}:${tool.targetId}`, tool.id]));
      const items = [];
      for (const kind of MCP_TOOL_KINDS) {
        for (const target of await repo.targetsOf(space.id, kind)) {
          // Only effective workflows can be exposed; the others would not run.
          if (kind === 'workflow' && !(target.effective && target.graph)) continue;
          items.push({
            kind,
            target_id: target.id,
            target_name: target.name,
            suggested_name: suggestedName(kind, target.name, target.id),
            input_schema: inputSchemaOf(kind, target.graph),
            tool_id: exposed.get(`${kind}:${target.id}`) ?? null,
          });
        }
      }
      return { items };
    },

    async addTool(
      ctx: AuthContext,
      body: { kind: McpToolKind; target_id: string; name?: string; description?: string },
    ) {
      const space = authorize(ctx, 'mcp.manage');
      const target = isUuid(body.target_id) ? await repo.target(space.id, body.kind, body.target_id) : null;
      if (!target) throw new AppError('NOT_FOUND');
      if (body.kind === 'workflow' && !(target.effective && target.graph))
        throw new AppError('MCP_WORKFLOW_NOT_EFFECTIVE');
      const tools = await repo.tools(space.id);
      if (tools.some((tool) => tool.kind === body.kind && tool.targetId === target.id)) {
        throw new AppError('MCP_TOOL_ALREADY_EXPOSED');
      }
      if (tools.length >= MCP_LIMITS.toolsPerTeam)
        throw new AppError('MCP_TOO_MANY_TOOLS', { max: MCP_LIMITS.toolsPerTeam });
      let name: string;
      if (body.name) {
        await checkName(space.id, body.name);
        name = body.name;
      } else {
        name = await freeName(space.id, suggestedName(body.kind, target.name, target.id));
      }
      const description = (body.description ?? target.description ?? '').slice(0, MCP_LIMITS.descriptionChars);
      try {
        const row = await repo.insertTool({
          spaceId: space.id,
          kind: body.kind,
          targetId: target.id,
          name,
          description: description || target.name,
          createdBy: ctx.userId,
        });
        await record(ctx, space.id, 'mcp.tool_add', { name, kind: body.kind, target: target.name });
        return toTool(row, target, undefined, ctx.language);
      } catch (error) {
        // Two admins adding at once: the unique indexes decide.
        if (isUniqueViolationOf(error, 'mcp_tools_name_key')) throw new AppError('MCP_TOOL_NAME_TAKEN', { name });
        if (isUniqueViolationOf(error, 'mcp_tools_target_key')) throw new AppError('MCP_TOOL_ALREADY_EXPOSED');
        throw error;
      }
    },

    async updateTool(ctx: AuthContext, body: { id: string; name: string; description: string }) {
      const space = authorize(ctx, 'mcp.manage');
      if (!isUuid(body.id)) throw new AppError('NOT_FOUND');
      const current = await repo.tool(space.id, body.id);
      await checkName(space.id, body.name, current.id);
      try {
        const row = await repo.updateTool(space.id, current.id, { name: body.name, description: body.description });
        const target = await repo.target(space.id, row.kind, row.targetId);
        return toTool(row, target, (await repo.usage(space.id)).get(row.id), ctx.language);
      } catch (error) {
        if (isUniqueViolationOf(error, 'mcp_tools_name_key'))
          throw new AppError('MCP_TOOL_NAME_TAKEN', { name: body.name });
        throw error;
      }
    },

    async removeTool(ctx: AuthContext, id: string) {
      const space = authorize(ctx, 'mcp.manage');
      if (!isUuid(id)) throw new AppError('NOT_FOUND');
      const removed = await repo.deleteTool(space.id, id);
      await record(ctx, space.id, 'mcp.tool_remove', { name: removed.name });
      return null;
    },

    async listTools(ctx: AuthContext) {
      const space = authorize(ctx, 'member.view');
      return { items: await presentTools(ctx, space.id) };
    },

    async listCalls(ctx: AuthContext, body: { tool_id?: string; page: number; page_size: number }) {
      const space = authorize(ctx, 'member.view');
      if (body.tool_id !== undefined) {
        if (!isUuid(body.tool_id)) throw new AppError('NOT_FOUND');
        await repo.tool(space.id, body.tool_id);
      }
      const { items, total } = await repo.calls(space.id, {
        toolId: body.tool_id,
        page: body.page,
        pageSize: body.page_size,
      });
      return { items: items.map(toCall), total };
    },
  };
}
