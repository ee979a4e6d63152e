import { formatMessage, MCP_LIMITS, MCP_PATH, MCP_RPC_ERRORS } from '@athena/contract';
import type { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { InvalidationBus } from '../../platform/cache.ts';
import { sha256 } from '../../platform/crypto.ts';
import type { Events } from '../../platform/events.ts';
import { ServerShuttingDown, trackStream } from '../../platform/http/open-streams.ts';
import { languageOf } from '../../platform/http/public-answers.ts';
import { hijack } from '../../platform/http/security-headers.ts';
import type { RateLimits } from '../../platform/rate-limit/rate-limits.ts';
import { teamDissolved } from '../team/index.ts';
import { mcpCallCancel } from './events.ts';
import type { McpRepo } from './mcp.repo.ts';
import type { Caller, ToolCalls } from './tool-call.command.ts';

/**
 * JSON-RPC 2.0's error codes, and the SDK's for a closed connection (its ErrorCode enum), as plain
 * numbers: refusals are answered before the SDK is loaded.
 */
const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  InvalidParams: -32602,
  InternalError: -32603,
  ConnectionClosed: -32000,
} as const;

async function loadServerSdk() {
  const [{ Server }, { SSEServerTransport }, { StreamableHTTPServerTransport }, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/sse.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return { Server, SSEServerTransport, StreamableHTTPServerTransport, types };
}
type McpServerSdk = Awaited<ReturnType<typeof loadServerSdk>>;
let loadingSdk: Promise<McpServerSdk> | undefined;

/**
 * The SDK's server side, loaded with the first MCP call: most servers never get one, and loading it
 * cost every start ~0.1 s and ~15 MB (docs/benchmarks.md, "Start-up and idle memory").
 */
const serverSdk = () => (loadingSdk ??= loadServerSdk());

/** Open old-style SSE sessions one token may hold in one process. */
const SSE_SESSIONS_PER_TOKEN = 5;

declare module 'fastify' {
  interface FastifyRequest {
    mcpCaller?: Caller;
  }
}

/** A JSON-RPC error as the whole HTTP answer (MCP clients read these, not our envelope). */
function rpcError(reply: FastifyReply, status: number, code: number, message: string) {
  return reply
    .status(status)
    .header('content-type', 'application/json')
    .send({ jsonrpc: '2.0', id: null, error: { code, message } });
}

/** Faults before the handler (a body the parser refuses, too large, another type) as JSON-RPC errors. */
function answerFault(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const language = languageOf(request);
  if (error.statusCode === 413) {
    return rpcError(reply, 413, MCP_RPC_ERRORS.tooLarge, formatMessage('PAYLOAD_TOO_LARGE', language));
  }
  if (
    error instanceof SyntaxError ||
    error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
    error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
  ) {
    return rpcError(reply, 400, ErrorCode.ParseError, 'Parse error: the body is not valid JSON.');
  }
  if (error.statusCode && error.statusCode < 500) {
    return rpcError(reply, error.statusCode, ErrorCode.InvalidRequest, `Invalid request: ${error.message}`);
  }
  request.log.error({ err: error }, 'MCP request failed');
  return rpcError(reply, 500, ErrorCode.InternalError, formatMessage('SYSTEM_ERROR', language));
}

/**
 * The team's MCP server over Streamable HTTP (docs/mcp.md): `POST /mcp/<team id>` (or `/mcp`, the
 * token naming the team), bearer-token auth, a rate limit per token. Stateless: every request gets
 * its own server and transport, so any process can answer any request and nothing is kept between them.
 */
export function registerMcpEndpoint(
  app: FastifyInstance,
  deps: {
    repo: McpRepo;
    tools: ToolCalls;
    rateLimits: RateLimits;
    bus: InvalidationBus;
    events: Events;
    callsPerMinute: number;
    version: string;
  },
) {
  const perToken = { name: 'mcp-token', limit: deps.callsPerMinute, windowSeconds: 60 };
  // Calls running in this process, by token and JSON-RPC id, for notifications/cancelled.
  const running = new Map<string, AbortController>();
  // A cancellation reaches the process running the call, wherever its request landed.
  const cancels = deps.events.channel('mcp.call-cancel', mcpCallCancel);
  cancels.receive(({ callKey }) => running.get(callKey)?.abort());

  /** Before the body is read: the token, its team, the switch and the rate limit. */
  async function authenticate(request: FastifyRequest, reply: FastifyReply) {
    const language = languageOf(request);
    const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim();
    const token = bearer && bearer.length <= 200 ? await deps.repo.useToken(sha256(bearer)) : null;
    const named = (request.params as { spaceId?: string }).spaceId;
    if (!token || (named !== undefined && named !== token.spaceId)) {
      reply.header('www-authenticate', 'Bearer');
      return rpcError(reply, 401, MCP_RPC_ERRORS.unauthorized, formatMessage('MCP_TOKEN_INVALID', language));
    }
    if (!token.enabled) {
      return rpcError(reply, 403, MCP_RPC_ERRORS.serverOff, formatMessage('MCP_SERVER_OFF', language));
    }
    // Counted once the token is known, so made-up tokens cannot fill the table.
    const verdict = await deps.rateLimits.hit([{ rule: perToken, subject: token.id }]);
    if (!verdict.allowed) {
      reply.header('retry-after', String(verdict.retryAfterSeconds));
      return rpcError(reply, 429, MCP_RPC_ERRORS.rateLimited, formatMessage('RATE_LIMITED', language));
    }
    request.mcpCaller = { tokenId: token.id, spaceId: token.spaceId, createdBy: token.createdBy, language };
  }

  function serverFor(sdk: McpServerSdk, caller: Caller, closed: AbortSignal) {
    const server = new sdk.Server(
      { name: 'athena', version: deps.version },
      {
        capabilities: { tools: { listChanged: false } },
        instructions: "Tools over this team's knowledge bases, workflows and agents.",
      },
    );
    server.setRequestHandler(sdk.types.ListToolsRequestSchema, async () => ({
      tools: await deps.tools.list(caller.spaceId),
    }));
    server.setRequestHandler(sdk.types.CallToolRequestSchema, async (request, extra) => {
      const tool = await deps.tools.find(caller.spaceId, request.params.name);
      if (!tool)
        throw new sdk.types.McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name.slice(0, 64)}`);
      const key = `${caller.tokenId}:${String(extra.requestId)}`;
      const controller = new AbortController();
      const cancelled = () => controller.abort(extra.signal.reason);
      // The client went away (nobody reads the answer) or the server is stopping: the work stops.
      const ended = () => controller.abort(closed.reason);
      extra.signal.addEventListener('abort', cancelled, { once: true });
      closed.addEventListener('abort', ended, { once: true });
      running.set(key, controller);
      const progressToken = request.params._meta?.progressToken;
      try {
        return await deps.tools.call(caller, tool, request.params.arguments, {
          signal: controller.signal,
          progress:
            progressToken === undefined
              ? undefined
              : (progress, total, message) => {
                  extra
                    .sendNotification({
                      method: 'notifications/progress',
                      params: { progressToken, progress, ...(total ? { total } : {}), message },
                    })
                    .catch(() => {});
                },
        });
      } finally {
        if (running.get(key) === controller) running.delete(key);
        extra.signal.removeEventListener('abort', cancelled);
        closed.removeEventListener('abort', ended);
      }
    });
    // Stateless: a cancellation arrives in a request of its own, maybe at another process.
    server.setNotificationHandler(sdk.types.CancelledNotificationSchema, async (notification) => {
      const requestId = notification.params.requestId;
      // The id is the client's: one no call of ours could have is not worth a message to every process.
      if (requestId === undefined || String(requestId).length > 100) return;
      const key = `${caller.tokenId}:${String(requestId)}`;
      const here = running.get(key);
      if (here) here.abort();
      else await cancels.send({ callKey: key });
    });
    return server;
  }

  async function handle(request: FastifyRequest, reply: FastifyReply) {
    const caller = request.mcpCaller as Caller;
    const sdk = await serverSdk();
    const closed = new AbortController();
    const server = serverFor(sdk, caller, closed.signal);
    const transport = new sdk.StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    hijack(reply);
    let markClosed = () => {};
    // A long workflow call streams for a while: shutdown drains it like every event stream.
    trackStream(request.server.server, {
      interrupt: () => closed.abort(new ServerShuttingDown()),
      destroy: () => reply.raw.destroy(),
      closed: new Promise<void>((resolve) => {
        markClosed = resolve;
      }),
    });
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) closed.abort(new Error('the MCP client closed the connection'));
      void transport.close();
      void server.close();
      markClosed();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (error) {
      request.log.error({ err: error }, 'MCP request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: null,
            error: { code: ErrorCode.InternalError, message: 'Internal error' },
          }),
        );
      }
    }
  }

  /** Stateless: no server-initiated stream to open (GET) and no session to end (DELETE). */
  const notAllowed = (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('allow', 'POST');
    return rpcError(
      reply,
      405,
      ErrorCode.ConnectionClosed,
      `Method not allowed: ${request.method}; this server is stateless, POST only.`,
    );
  };

  for (const url of [MCP_PATH, `${MCP_PATH}/:spaceId`]) {
    app.route({
      method: 'POST',
      url,
      schema: { hide: true },
      bodyLimit: MCP_LIMITS.bodyBytes,
      errorHandler: answerFault,
      onRequest: authenticate,
      handler: handle,
    });
    app.route({ method: ['GET', 'DELETE'], url, schema: { hide: true }, handler: notAllowed });
  }

  // The old HTTP+SSE transport (2024-11-05), for clients that speak nothing newer: a session is a
  // GET stream this process holds, and its messages are POSTed here with its id. Stateful by its
  // nature: a POST that reaches another process finds no session (docs/mcp.md says so).
  const sessions = new Map<string, { tokenId: string; spaceId: string; transport: SSEServerTransport; end(): void }>();
  // A revoked token, a server switched off or a dissolved team ends its open sessions at once.
  // (A team's rename or balance change drops its cached rows too, `space:<team>`: not a reason.)
  deps.bus.subscribe((key) => {
    for (const session of sessions.values()) {
      if (key === '*' || key === `mcp-token:${session.tokenId}` || key === `mcp:${session.spaceId}`) session.end();
    }
  });
  deps.events.channel('team.dissolved', teamDissolved).receive(({ spaceId }) => {
    for (const session of sessions.values()) if (session.spaceId === spaceId) session.end();
  });

  async function openSse(request: FastifyRequest<{ Params: { spaceId: string } }>, reply: FastifyReply) {
    const caller = request.mcpCaller as Caller;
    // Loaded before the sessions are counted, so that nothing between the count and the new
    // session's entry waits.
    const sdk = await serverSdk();
    // Each open stream holds a server in this process: a token gets a few, not as many as it asks.
    const open = [...sessions.values()].filter((session) => session.tokenId === caller.tokenId).length;
    if (open >= SSE_SESSIONS_PER_TOKEN) {
      return rpcError(reply, 429, MCP_RPC_ERRORS.rateLimited, formatMessage('RATE_LIMITED', caller.language));
    }
    const closed = new AbortController();
    hijack(reply);
    const transport = new sdk.SSEServerTransport(`${MCP_PATH}/${request.params.spaceId}/messages`, reply.raw);
    const server = serverFor(sdk, caller, closed.signal);
    let markClosed = () => {};
    trackStream(request.server.server, {
      interrupt: () => closed.abort(new ServerShuttingDown()),
      destroy: () => reply.raw.destroy(),
      closed: new Promise<void>((resolve) => {
        markClosed = resolve;
      }),
    });
    sessions.set(transport.sessionId, {
      tokenId: caller.tokenId,
      spaceId: caller.spaceId,
      transport,
      end: () => {
        closed.abort(new Error('the token or the server is no longer usable'));
        reply.raw.end();
      },
    });
    reply.raw.on('close', () => {
      sessions.delete(transport.sessionId);
      closed.abort(new Error('the MCP client closed the connection'));
      void server.close();
      markClosed();
    });
    await server.connect(transport);
  }

  async function postSse(request: FastifyRequest<{ Querystring: { sessionId?: string } }>, reply: FastifyReply) {
    const caller = request.mcpCaller as Caller;
    const session = sessions.get(String(request.query.sessionId ?? ''));
    // Only the token that opened a session may post to it.
    if (!session || session.tokenId !== caller.tokenId) {
      return rpcError(
        reply,
        404,
        ErrorCode.ConnectionClosed,
        'No such SSE session here: it ended, or another server process holds it. Connect again, or use Streamable HTTP.',
      );
    }
    hijack(reply);
    await session.transport.handlePostMessage(request.raw, reply.raw, request.body);
  }

  app.route({
    method: 'GET',
    url: `${MCP_PATH}/:spaceId/sse`,
    schema: { hide: true },
    errorHandler: answerFault,
    onRequest: authenticate,
    handler: openSse,
  });
  app.route({
    method: 'POST',
    url: `${MCP_PATH}/:spaceId/messages`,
    schema: { hide: true },
    bodyLimit: MCP_LIMITS.bodyBytes,
    errorHandler: answerFault,
    onRequest: authenticate,
    handler: postSse,
  });
}
