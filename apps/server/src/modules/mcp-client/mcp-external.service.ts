import {
  can,
  formatMessage,
  type Language,
  MCP_EXTERNAL_LIMITS,
  MCP_HEADER_NAME,
  MCP_RESERVED_HEADERS,
  type McpExternalTransport,
  type McpExternalTryResult,
} from '@athena/contract';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import { decryptSecret, encryptSecret, isUuid } from '../../platform/crypto.ts';
import { isUniqueViolationOf } from '../../platform/db/sql.ts';
import { storableText } from '../../platform/db/storable.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { refusedHost } from '../../platform/llm/outbound-guard.ts';
import type { AuditRepo } from '../team/index.ts';
import type { ExternalClient, ExternalTarget } from './external-client.command.ts';
import { toExternalServer, toExternalTool } from './mcp-external.presenters.ts';
import type { ExternalRepo, ExternalServerRow } from './mcp-external.repo.ts';

export type ExternalServers = ReturnType<typeof createExternalServers>;

type Header = { name: string; value: string };

export interface ExternalCallOptions {
  signal?: AbortSignal;
  /** MCP_EXTERNAL_LIMITS.callTimeoutMs unless given; at most maxCallTimeoutMs. */
  timeoutMs?: number;
  /** Who calls, for the usage log: 'agent', 'workflow'… ('try' is the page's). */
  source?: string;
  userId?: string | null;
}

/** The text of a tool's answer: text parts as they are, the others named in brackets. */
function contentText(result: CallToolResult): string {
  const parts = (result.content ?? []).map((part) => {
    if (part.type === 'text') return part.text;
    if (part.type === 'image' || part.type === 'audio')
      return `[${part.type} ${part.mimeType}, ${part.data.length} base64 characters]`;
    if (part.type === 'resource_link') return `[resource ${part.uri}]`;
    if (part.type === 'resource') {
      const resource = part.resource as { uri: string; text?: string };
      return resource.text ?? `[resource ${resource.uri}]`;
    }
    return `[${(part as { type: string }).type}]`;
  });
  return parts.join('\n');
}

/** At most `max` characters of a server's text, storable and never cut inside a character. */
const cut = (text: string, max: number) => ({ text: storableText(text, max), cut: text.length > max });

/** Two saves of one name at once: the unique index decides, and the loser is told the name is taken. */
const nameTakenOr = (error: unknown, name: string) =>
  isUniqueViolationOf(error, 'mcp_external_servers_name_key')
    ? new AppError('MCP_EXTERNAL_NAME_TAKEN', { name })
    : error;

/**
 * The team's external MCP servers (docs/mcp.md, "External MCP servers"): every member may list
 * them and read their tools; adding, changing, refreshing, trying and removing need `mcp.manage`.
 * Header values are sealed with the master key and never answered.
 */
export function createExternalServers(deps: {
  repo: ExternalRepo;
  client: ExternalClient;
  masterKey: Buffer;
  /** Whether servers may sit on private and loopback addresses (ALLOW_PRIVATE_MODEL_ENDPOINTS). */
  allowPrivate: boolean;
  /** Adding and removing a server go to the team's audit log. */
  audit: AuditRepo;
}) {
  const { repo, client, masterKey } = deps;

  const headersOf = (row: Pick<ExternalServerRow, 'headersSealed'>): Header[] =>
    row.headersSealed ? (JSON.parse(decryptSecret(masterKey, row.headersSealed)) as Header[]) : [];
  const seal = (headers: Header[]) => (headers.length ? encryptSecret(masterKey, JSON.stringify(headers)) : '');
  const targetOf = (row: ExternalServerRow): ExternalTarget => ({
    url: row.url,
    transport: row.transport,
    headers: headersOf(row).filter((header) => header.value !== ''),
  });

  async function present(row: ExternalServerRow) {
    const usage = (await repo.usage(row.spaceId)).get(row.id);
    return toExternalServer(row, usage, setNames(row));
  }
  const setNames = (row: ExternalServerRow) =>
    new Set(headersOf(row).flatMap((header) => (header.value ? [header.name] : [])));

  async function checkUrl(written: string) {
    let url: URL;
    try {
      url = new URL(written);
    } catch {
      throw new AppError('MCP_EXTERNAL_URL_INVALID');
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) {
      throw new AppError('MCP_EXTERNAL_URL_INVALID');
    }
    // Refused now what every connection would refuse (the guard checks those too, redirects included).
    const host = await refusedHost(url.hostname, { allowPrivate: deps.allowPrivate });
    if (host) throw new AppError('MCP_EXTERNAL_ADDRESS_BLOCKED', { host });
    return url.toString();
  }

  function checkHeaders(headers: { name: string; value?: string | null }[]) {
    const seen = new Set<string>();
    for (const header of headers) {
      const lower = header.name.toLowerCase();
      const reserved = (MCP_RESERVED_HEADERS as readonly string[]).includes(lower);
      const badValue = header.value != null && /[\r\n\0]/.test(header.value);
      if (!MCP_HEADER_NAME.test(header.name) || reserved || badValue || seen.has(lower)) {
        throw new AppError('MCP_EXTERNAL_HEADER_INVALID', { name: header.name.slice(0, 100) });
      }
      seen.add(lower);
    }
  }

  async function checkName(spaceId: string, name: string, exceptId?: string) {
    const holder = await repo.named(spaceId, name);
    if (holder && holder.id !== exceptId) throw new AppError('MCP_EXTERNAL_NAME_TAKEN', { name });
  }

  async function found(spaceId: string, id: string) {
    if (!isUuid(id)) throw new AppError('NOT_FOUND');
    return repo.find(spaceId, id);
  }

  const errorText = (error: AppError, language: Language) => formatMessage(error.key, language, error.params);

  /** One tool call, logged with its duration and outcome; failures are AppErrors with our codes. */
  async function call(
    row: ExternalServerRow,
    toolName: string,
    args: Record<string, unknown>,
    options: ExternalCallOptions,
    language: Language,
  ): Promise<{ result: CallToolResult; durationMs: number }> {
    if (!row.enabled) throw new AppError('MCP_EXTERNAL_DISABLED', { name: row.name });
    if (row.toolsReadAt && !row.tools.some((tool) => tool.name === toolName)) {
      throw new AppError('MCP_EXTERNAL_TOOL_UNKNOWN', { name: toolName.slice(0, 128) });
    }
    const timeoutMs = Math.min(
      options.timeoutMs ?? MCP_EXTERNAL_LIMITS.callTimeoutMs,
      MCP_EXTERNAL_LIMITS.maxCallTimeoutMs,
    );
    const started = performance.now();
    const log = {
      spaceId: row.spaceId,
      serverId: row.id,
      toolName,
      source: options.source ?? 'api',
      userId: options.userId ?? null,
    };
    try {
      const result = await client.callTool(targetOf(row), toolName, args, { signal: options.signal, timeoutMs });
      const durationMs = Math.round(performance.now() - started);
      const failed = result.isError === true;
      await repo.recordCall({
        ...log,
        ok: !failed,
        errorKey: failed ? 'tool_error' : '',
        error: failed ? contentText(result).slice(0, 2000) : '',
        durationMs,
      });
      return { result, durationMs };
    } catch (error) {
      // The client turns every failure of the server into an AppError; anything else is ours, and
      // its text (a database error's, say) is not for the caller.
      const failure =
        error instanceof AppError ? error : new AppError('MCP_EXTERNAL_UNREACHABLE', { detail: 'internal error' });
      const text = errorText(failure, language);
      await repo.recordCall({
        ...log,
        ok: false,
        errorKey: failure.key,
        error: text.slice(0, 2000),
        durationMs: Math.round(performance.now() - started),
      });
      if (failure.key !== 'MCP_EXTERNAL_CANCELLED' && failure.key !== 'MCP_EXTERNAL_TOOL_UNKNOWN') {
        await repo.recordError(row.spaceId, row.id, text.slice(0, 2000));
      }
      throw failure;
    }
  }

  return {
    async list(ctx: AuthContext) {
      const space = authorize(ctx, 'member.view');
      const usage = await repo.usage(space.id);
      const rows = await repo.list(space.id);
      return {
        items: rows.map((row) => toExternalServer(row, usage.get(row.id), setNames(row))),
        can_manage: can(ctx.space?.role ?? 3, 'mcp.manage'),
        max: MCP_EXTERNAL_LIMITS.serversPerTeam,
      };
    },

    async add(
      ctx: AuthContext,
      body: { name: string; url: string; transport: McpExternalTransport; headers: Header[]; enabled: boolean },
    ) {
      const space = authorize(ctx, 'mcp.manage');
      const url = await checkUrl(body.url);
      checkHeaders(body.headers);
      await checkName(space.id, body.name);
      if ((await repo.countOf(space.id)) >= MCP_EXTERNAL_LIMITS.serversPerTeam) {
        throw new AppError('MCP_EXTERNAL_TOO_MANY', { max: MCP_EXTERNAL_LIMITS.serversPerTeam });
      }
      let id: string;
      try {
        id = await repo.insert({
          spaceId: space.id,
          name: body.name,
          url,
          transport: body.transport,
          headerNames: body.headers.map((header) => header.name),
          headersSealed: seal(body.headers),
          enabled: body.enabled,
          createdBy: ctx.userId,
        });
      } catch (error) {
        throw nameTakenOr(error, body.name);
      }
      await deps.audit.record({
        spaceId: space.id,
        actorId: ctx.userId,
        action: 'mcp.external_add',
        details: { name: body.name, host: new URL(url).host },
      });
      return present(await repo.find(space.id, id));
    },

    async update(
      ctx: AuthContext,
      body: {
        id: string;
        name: string;
        url: string;
        transport: McpExternalTransport;
        headers: { name: string; value?: string | null }[];
        enabled: boolean;
      },
    ) {
      const space = authorize(ctx, 'mcp.manage');
      const row = await found(space.id, body.id);
      const url = await checkUrl(body.url);
      checkHeaders(body.headers);
      await checkName(space.id, body.name, row.id);
      // A stored value goes only where it went before: with another origin every value must be sent
      // again, or the new host would get the old host's secrets from someone who never saw them.
      const sameOrigin = new URL(url).origin === new URL(row.url).origin;
      const stored = new Map(
        sameOrigin ? headersOf(row).map((header) => [header.name.toLowerCase(), header.value]) : [],
      );
      const headers = body.headers.map((header) => ({
        name: header.name,
        value: header.value ?? stored.get(header.name.toLowerCase()) ?? '',
      }));
      // Another address or transport: the old tool list describes another server.
      const moved = url !== row.url || body.transport !== row.transport;
      try {
        await repo.update(space.id, row.id, {
          name: body.name,
          url,
          transport: body.transport,
          headerNames: headers.map((header) => header.name),
          headersSealed: seal(headers),
          enabled: body.enabled,
          ...(moved ? { tools: [], toolsReadAt: null } : {}),
        });
      } catch (error) {
        throw nameTakenOr(error, body.name);
      }
      await deps.audit.record({
        spaceId: space.id,
        actorId: ctx.userId,
        action: 'mcp.external_update',
        details: { name: body.name, host: new URL(url).host, headers: headers.length },
      });
      return present(await repo.find(space.id, row.id));
    },

    async remove(ctx: AuthContext, id: string) {
      const space = authorize(ctx, 'mcp.manage');
      if (!isUuid(id)) throw new AppError('NOT_FOUND');
      const removed = await repo.remove(space.id, id);
      await deps.audit.record({
        spaceId: space.id,
        actorId: ctx.userId,
        action: 'mcp.external_remove',
        details: { name: removed.name },
      });
      return null;
    },

    /** Connects, reads `tools/list` and caches it; a failure is kept on the server and answered. */
    async refresh(ctx: AuthContext, id: string, signal?: AbortSignal) {
      const space = authorize(ctx, 'mcp.manage');
      const row = await found(space.id, id);
      const started = performance.now();
      const log = { spaceId: space.id, serverId: row.id, toolName: '', source: 'refresh', userId: ctx.userId };
      try {
        const tools = await client.listTools(targetOf(row), {
          signal,
          timeoutMs: MCP_EXTERNAL_LIMITS.connectTimeoutMs * 2,
        });
        await repo.recordRead(space.id, row.id, { tools });
        await repo.recordCall({ ...log, ok: true, durationMs: Math.round(performance.now() - started) });
        return { server: await present(await repo.find(space.id, row.id)), tools: tools.map(toExternalTool) };
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const text = errorText(error, ctx.language).slice(0, 2000);
        await repo.recordRead(space.id, row.id, { error: text });
        await repo.recordCall({
          ...log,
          ok: false,
          errorKey: error.key,
          error: text,
          durationMs: Math.round(performance.now() - started),
        });
        throw error;
      }
    },

    async tools(ctx: AuthContext, id: string) {
      const space = authorize(ctx, 'member.view');
      const row = await found(space.id, id);
      return { items: row.tools.map(toExternalTool), read_at: row.toolsReadAt?.toISOString() ?? null };
    },

    /** The page's "try it": one call, its answer cut to MCP_EXTERNAL_LIMITS.tryOutputChars. */
    async tryTool(
      ctx: AuthContext,
      body: { id: string; tool_name: string; arguments: Record<string, unknown> },
      signal?: AbortSignal,
    ): Promise<McpExternalTryResult> {
      const space = authorize(ctx, 'mcp.manage');
      const row = await found(space.id, body.id);
      if (Buffer.byteLength(JSON.stringify(body.arguments)) > MCP_EXTERNAL_LIMITS.argumentsBytes) {
        throw new AppError('MCP_EXTERNAL_ARGUMENTS_TOO_LARGE', { max: MCP_EXTERNAL_LIMITS.argumentsBytes / 1000 });
      }
      const { result, durationMs } = await call(
        row,
        body.tool_name,
        body.arguments,
        { signal, source: 'try', userId: ctx.userId, timeoutMs: MCP_EXTERNAL_LIMITS.callTimeoutMs / 2 },
        ctx.language,
      );
      const max = MCP_EXTERNAL_LIMITS.tryOutputChars;
      const content = cut(contentText(result), max);
      const structured = cut(result.structuredContent ? JSON.stringify(result.structuredContent, null, 2) : '', max);
      return {
        is_error: result.isError === true,
        content: content.text,
        structured: structured.text,
        truncated: content.cut || structured.cut,
        duration_ms: durationMs,
      };
    },

    /**
     * The tools named by `refs` as an agent offers them to its model: from the cached lists of the
     * team's switched-on servers, in the order asked; a ref whose server or tool is gone is left out.
     */
    async describeTools(spaceId: string, refs: { serverId: string; tool: string }[]) {
      if (refs.length === 0) return [];
      const servers = new Map((await repo.list(spaceId)).map((row) => [row.id, row]));
      return refs.flatMap(({ serverId, tool }) => {
        const server = servers.get(serverId);
        const found = server?.enabled ? server.tools.find((item) => item.name === tool) : undefined;
        if (!server || !found) return [];
        return [
          {
            serverId,
            serverName: server.name,
            tool: found.name,
            description: found.description || found.title,
            inputSchema: found.inputSchema,
          },
        ];
      });
    },

    /** Whether every one of `serverIds` is a server of this team (an agent may attach only those). */
    async ownsServers(spaceId: string, serverIds: string[]) {
      const mine = new Set((await repo.list(spaceId)).map((row) => row.id));
      return serverIds.every((id) => mine.has(id));
    },

    /**
     * The cached input schema of a tool of one of the team's servers (the workflow node reads its
     * arguments by it); null when the server is not this team's or the tool is not in its list.
     */
    async inputSchemaOf(spaceId: string, serverId: string, toolName: string) {
      if (!isUuid(serverId)) return null;
      const row = await repo.find(spaceId, serverId).catch((error: unknown) => {
        if (error instanceof AppError && error.key === 'NOT_FOUND') return null;
        throw error;
      });
      return row?.tools.find((tool) => tool.name === toolName)?.inputSchema ?? null;
    },

    /**
     * For agents and workflows: call a tool of one of the team's servers. No permission check (the
     * caller runs on the team's behalf); the server is looked up in `spaceId`. Throws AppError with
     * MCP_EXTERNAL_* codes (or NOT_FOUND); a tool's own failure is a result with `isError`.
     */
    async callExternalTool(
      spaceId: string,
      serverId: string,
      toolName: string,
      args: Record<string, unknown>,
      options: ExternalCallOptions = {},
    ): Promise<CallToolResult> {
      const row = await found(spaceId, serverId);
      return (await call(row, toolName, args, options, 'en')).result;
    },
  };
}
