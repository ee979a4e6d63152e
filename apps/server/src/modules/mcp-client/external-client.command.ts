import { MCP_EXTERNAL_LIMITS, type McpExternalTransport } from '@athena/contract';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../../platform/http/app-error.ts';
import { isBlockedError } from '../../platform/llm/outbound-guard.ts';
import type { CachedExternalTool } from './mcp-external.schema.ts';

// Our client of a team's external MCP servers (docs/mcp.md, "External MCP servers"). Every
// operation opens its own connection, does one thing and closes it: nothing is kept between calls,
// so any process can serve any call. Every byte comes through the outbound guard's fetch, which
// checks every connection (redirects included), and through a counter that stops reading at
// MCP_EXTERNAL_LIMITS.responseBytes.

export interface ExternalTarget {
  url: string;
  transport: McpExternalTransport;
  headers: { name: string; value: string }[];
}

export interface OperationOptions {
  /** The caller's stop signal (a closed request, a cancelled run). */
  signal?: AbortSignal;
  /** The whole operation, connecting included. */
  timeoutMs: number;
}

/** Why an operation was stopped: the reason its AbortController carries. */
class Stop extends Error {
  constructor(readonly failure: AppError) {
    super(failure.key);
  }
}

class TooLarge extends Error {}

const CLIENT_INFO = { name: 'athena', version: '1' };

async function loadClientSdk() {
  const [{ Client }, { SSEClientTransport }, { StreamableHTTPClientTransport }, { ErrorCode, McpError }] =
    await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/sse.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
  return { Client, SSEClientTransport, StreamableHTTPClientTransport, ErrorCode, McpError };
}
type ClientSdk = Awaited<ReturnType<typeof loadClientSdk>>;
let loadingSdk: Promise<ClientSdk> | undefined;

/**
 * The SDK's client side, loaded with the first call to an external server rather than at start-up
 * (~0.1 s and ~20 MB that a server nobody connects a tool to should not pay).
 */
const clientSdk = () => (loadingSdk ??= loadClientSdk());

/** A fetch whose every answer is read through a byte counter, and which stops with `signal`. */
function cappedFetch(base: typeof fetch, signal: AbortSignal, onTooLarge: () => void): typeof fetch {
  const cap = MCP_EXTERNAL_LIMITS.responseBytes;
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const stops = init?.signal ? AbortSignal.any([init.signal, signal]) : signal;
    const response = await base(input, { ...init, signal: stops });
    if (Number(response.headers.get('content-length')) > cap) {
      await response.body?.cancel().catch(() => {});
      onTooLarge();
      throw new TooLarge();
    }
    if (!response.body || [204, 205, 304].includes(response.status)) return response;
    let seen = 0;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > cap) {
            onTooLarge();
            controller.error(new TooLarge());
            return;
          }
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }) as typeof fetch;
}

/** The first line of a message, short enough to show and store. */
const brief = (text: string) => text.split('\n')[0].slice(0, 300);

/** Turns whatever an operation threw into one of our codes (`sdk`: the SDK, loaded by then). */
export function toExternalError(error: unknown, timeoutMs: number, sdk: ClientSdk): AppError {
  const { ErrorCode, McpError } = sdk;
  if (error instanceof AppError) return error;
  if (error instanceof Stop) return error.failure;
  if (isBlockedError(error)) {
    let current = error as { address?: string; cause?: unknown } | undefined;
    while (current && !current.address) current = current.cause as typeof current;
    return new AppError('MCP_EXTERNAL_ADDRESS_BLOCKED', { host: current?.address ?? '' });
  }
  for (let current = error, depth = 0; current && depth < 6; depth++) {
    if (current instanceof TooLarge) {
      return new AppError('MCP_EXTERNAL_TOO_LARGE', { max: MCP_EXTERNAL_LIMITS.responseBytes / 1024 / 1024 });
    }
    const code = (current as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|EHOSTUNREACH|ENETUNREACH)$/.test(code)
    ) {
      return new AppError('MCP_EXTERNAL_UNREACHABLE', { detail: code });
    }
    current = (current as { cause?: unknown }).cause;
  }
  if (error instanceof McpError) {
    if (error.code === ErrorCode.RequestTimeout) {
      return new AppError('MCP_EXTERNAL_TIMEOUT', { seconds: Math.ceil(timeoutMs / 1000) });
    }
    if (error.code === ErrorCode.ConnectionClosed) {
      return new AppError('MCP_EXTERNAL_UNREACHABLE', { detail: 'the connection closed' });
    }
    return new AppError('MCP_EXTERNAL_CALL_FAILED', { detail: brief(error.message) });
  }
  const named = error as { name?: string; code?: unknown; message?: string };
  const message = brief(String(named.message ?? error));
  // The transports' HTTP errors carry the status as `code` (SSE's and Streamable HTTP's alike).
  if (typeof named.code === 'number' && named.code >= 400) {
    if (named.code === 401 || named.code === 403)
      return new AppError('MCP_EXTERNAL_UNAUTHORIZED', { status: named.code });
    return new AppError('MCP_EXTERNAL_UNREACHABLE', { detail: `HTTP ${named.code}` });
  }
  if (named.name === 'UnauthorizedError') return new AppError('MCP_EXTERNAL_UNAUTHORIZED', { status: 401 });
  if (named.name === 'SyntaxError' || named.name === 'ZodError' || /content type|JSON/i.test(message)) {
    return new AppError('MCP_EXTERNAL_PROTOCOL', {
      detail: named.name === 'ZodError' ? 'unexpected message shape' : message,
    });
  }
  if (named.name === 'TypeError' && /fetch failed/i.test(message)) {
    return new AppError('MCP_EXTERNAL_UNREACHABLE', { detail: message });
  }
  return new AppError('MCP_EXTERNAL_UNREACHABLE', { detail: message || 'unknown error' });
}

/**
 * The client of external MCP servers: one connection per operation, through `fetch` (the outbound
 * guard's), stopped by the caller's signal, a timeout, an answer over the size cap, or a message
 * that is not MCP.
 */
export function createExternalClient(deps: { fetch: typeof fetch }) {
  async function withClient<T>(
    target: ExternalTarget,
    options: OperationOptions,
    work: (client: Client, signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    let url: URL;
    try {
      url = new URL(target.url);
    } catch {
      throw new AppError('MCP_EXTERNAL_URL_INVALID');
    }
    const sdk = await clientSdk();
    const controller = new AbortController();
    const stop = (failure: AppError) => {
      if (!controller.signal.aborted) controller.abort(new Stop(failure));
    };
    const timer = setTimeout(
      () => stop(new AppError('MCP_EXTERNAL_TIMEOUT', { seconds: Math.ceil(options.timeoutMs / 1000) })),
      options.timeoutMs,
    );
    const cancel = () => stop(new AppError('MCP_EXTERNAL_CANCELLED'));
    if (options.signal?.aborted) cancel();
    options.signal?.addEventListener('abort', cancel, { once: true });

    const fetch = cappedFetch(deps.fetch, controller.signal, () =>
      stop(new AppError('MCP_EXTERNAL_TOO_LARGE', { max: MCP_EXTERNAL_LIMITS.responseBytes / 1024 / 1024 })),
    );
    const requestInit = { headers: Object.fromEntries(target.headers.map((header) => [header.name, header.value])) };
    const transport: Transport =
      target.transport === 'sse'
        ? new sdk.SSEClientTransport(url, { fetch, requestInit })
        : new sdk.StreamableHTTPClientTransport(url, { fetch, requestInit, reconnectionOptions: noReconnection });
    const client = new sdk.Client(CLIENT_INFO, { capabilities: {} });
    // A message that is not MCP arrives here (not as the request's answer): stop at once rather
    // than wait for the timeout.
    client.onerror = (error) => {
      const failure = toExternalError(error, options.timeoutMs, sdk);
      if (failure.key === 'MCP_EXTERNAL_PROTOCOL' || failure.key === 'MCP_EXTERNAL_TOO_LARGE') stop(failure);
    };
    const stopped = new Promise<never>((_, reject) => {
      const fail = () => reject(controller.signal.reason);
      if (controller.signal.aborted) fail();
      controller.signal.addEventListener('abort', fail, { once: true });
    });
    stopped.catch(() => {});
    try {
      const requestOptions = { signal: controller.signal, timeout: options.timeoutMs + 1_000 };
      await Promise.race([client.connect(transport, requestOptions), stopped]);
      return await Promise.race([work(client, controller.signal), stopped]);
    } catch (error) {
      throw toExternalError(controller.signal.aborted ? controller.signal.reason : error, options.timeoutMs, sdk);
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', cancel);
      if (!controller.signal.aborted) controller.abort(new Stop(new AppError('MCP_EXTERNAL_CANCELLED')));
      await client.close().catch(() => {});
    }
  }

  return {
    /** `initialize` and every page of `tools/list`, trimmed to the limits. */
    listTools(target: ExternalTarget, options: OperationOptions): Promise<CachedExternalTool[]> {
      return withClient(target, options, async (client, signal) => {
        const tools: CachedExternalTool[] = [];
        const limits = MCP_EXTERNAL_LIMITS;
        let listChars = 0;
        let cursor: string | undefined;
        for (let page = 0; page < 20 && tools.length < limits.toolsPerServer; page++) {
          const answer = await client.listTools(cursor ? { cursor } : {}, { signal, timeout: options.timeoutMs });
          for (const listed of answer.tools) {
            const schema = JSON.stringify(listed.inputSchema);
            const tool = {
              name: listed.name.slice(0, 128),
              title: (listed.title ?? listed.annotations?.title ?? '').slice(0, 200),
              description: (listed.description ?? '').slice(0, limits.toolDescriptionChars),
              // A giant schema would bloat every page that shows the list; its tool stays callable.
              inputSchema:
                schema.length > limits.toolSchemaChars
                  ? { type: 'object' }
                  : (listed.inputSchema as Record<string, unknown>),
            };
            listChars += JSON.stringify(tool).length;
            if (tools.length >= limits.toolsPerServer || listChars > limits.toolListChars) return tools;
            tools.push(tool);
          }
          cursor = answer.nextCursor;
          if (!cursor) break;
        }
        return tools;
      });
    },

    /** One `tools/call`; a tool's own failure is an answer with `isError`, not an exception. */
    callTool(
      target: ExternalTarget,
      name: string,
      args: Record<string, unknown>,
      options: OperationOptions,
    ): Promise<CallToolResult> {
      return withClient(target, options, async (client, signal) => {
        const answer = await client.callTool({ name, arguments: args }, undefined, {
          signal,
          timeout: options.timeoutMs,
        });
        return answer as CallToolResult;
      });
    },
  };
}

export type ExternalClient = ReturnType<typeof createExternalClient>;

// A stateless operation has nothing to resume: a dropped stream fails the call.
const noReconnection = {
  maxReconnectionDelay: 0,
  initialReconnectionDelay: 0,
  reconnectionDelayGrowFactor: 1,
  maxRetries: 0,
};
