import { MCP_LIMITS, MCP_TOOL_NAME, type McpToken } from '@athena/contract';

/** mcp-remote replaces `${AUTH_HEADER}` in its arguments with that environment variable. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: the literal text mcp-remote expects.
export const MCP_REMOTE_HEADER_ARG = 'Authorization:${AUTH_HEADER}';

/** What a snippet shows until a token created on this page is filled in. */
export const TOKEN_PLACEHOLDER = '<YOUR_TOKEN>';

/** The name the team's server gets in a client's configuration. */
const SERVER_KEY = 'athena';

/** A token created in this page view: its secret may be filled into the snippets while it is active. */
export interface FreshToken {
  id: string;
  name: string;
  token: string;
}

/** The endpoint a client connects to: this site's origin and the path `settings/get` gives. */
export const endpointUrl = (origin: string, path: string): string => `${origin.replace(/\/+$/, '')}${path}`;

export const SNIPPET_CLIENTS = ['cherryStudio', 'cursor', 'vscode', 'claudeDesktop', 'claudeCode', 'curl'] as const;
export type SnippetClient = (typeof SNIPPET_CLIENTS)[number];

const json = (value: unknown) => JSON.stringify(value, null, 2);
/** A value inside single quotes for a POSIX shell. */
const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/**
 * A client's configuration for the team's server (docs/mcp.md, "The page" says which format each
 * follows). `token` is the secret, or TOKEN_PLACEHOLDER.
 */
export function buildSnippet(client: SnippetClient, url: string, token: string): string {
  const bearer = `Bearer ${token}`;
  switch (client) {
    case 'cherryStudio':
      return json({
        mcpServers: { [SERVER_KEY]: { type: 'streamableHttp', baseUrl: url, headers: { Authorization: bearer } } },
      });
    case 'cursor':
      return json({ mcpServers: { [SERVER_KEY]: { url, headers: { Authorization: bearer } } } });
    case 'vscode':
      return json({ servers: { [SERVER_KEY]: { type: 'http', url, headers: { Authorization: bearer } } } });
    case 'claudeDesktop':
      // Its configuration file starts local programs only; mcp-remote bridges to a URL. The header
      // goes through an environment variable because a space inside an argument breaks on Windows.
      return json({
        mcpServers: {
          [SERVER_KEY]: {
            command: 'npx',
            args: ['-y', 'mcp-remote', url, '--header', MCP_REMOTE_HEADER_ARG],
            env: { AUTH_HEADER: bearer },
          },
        },
      });
    case 'claudeCode':
      return `claude mcp add --transport http ${SERVER_KEY} ${shellQuote(url)} --header ${shellQuote(`Authorization: ${bearer}`)}`;
    case 'curl':
      return [
        `curl -sS ${shellQuote(url)} \\`,
        `  -H ${shellQuote(`Authorization: ${bearer}`)} \\`,
        `  -H 'Content-Type: application/json' \\`,
        `  -H 'Accept: application/json, text/event-stream' \\`,
        `  -d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'`,
      ].join('\n');
  }
}

/** Where each client keeps the snippet (shown above it). */
export const SNIPPET_FILES: Record<SnippetClient, string> = {
  cherryStudio: '',
  cursor: '~/.cursor/mcp.json',
  vscode: '.vscode/mcp.json',
  claudeDesktop: 'claude_desktop_config.json',
  claudeCode: '',
  curl: '',
};

const DAY_MS = 24 * 60 * 60 * 1000;

export const EXPIRY_PRESETS = ['30', '90', '365', 'never', 'custom'] as const;
export type ExpiryPreset = (typeof EXPIRY_PRESETS)[number];

/** The last moment a token may expire: MCP_LIMITS.maxTokenDays from now, less a minute for the trip. */
export const latestExpiry = (now: number): number => now + MCP_LIMITS.maxTokenDays * DAY_MS - 60_000;

/**
 * The `expires_at` to send: null for never; a preset counts days from now; a custom date ends at
 * the end of that local day, moved back to the latest allowed moment if that is later. Undefined
 * when a custom date is missing or not in the future.
 */
export function expiryFor(preset: ExpiryPreset, now: number, customDay?: Date | null): string | null | undefined {
  if (preset === 'never') return null;
  if (preset === 'custom') {
    if (!customDay) return undefined;
    const end = new Date(customDay);
    end.setHours(23, 59, 59, 0);
    const at = Math.min(end.getTime(), latestExpiry(now));
    return at > now ? new Date(at).toISOString() : undefined;
  }
  return new Date(now + Number(preset) * DAY_MS).toISOString();
}

/** Whether a day may be picked as a custom expiry: from today to the latest allowed day. */
export function isPickableExpiryDay(day: Date, now: number): boolean {
  const end = new Date(day);
  end.setHours(23, 59, 59, 0);
  const start = new Date(day);
  start.setHours(0, 0, 0, 0);
  return end.getTime() > now && start.getTime() <= latestExpiry(now);
}

export type TokenStatus = 'active' | 'revoked' | 'expired';

/** A token's tag: revoked wins over expired; `active` from the server is the truth otherwise. */
export function tokenStatus(token: Pick<McpToken, 'revoked' | 'active'>): TokenStatus {
  if (token.revoked) return 'revoked';
  return token.active ? 'active' : 'expired';
}

/** The client's check of a tool name, before the server's: null when it passes. */
export function toolNameProblem(name: string): 'required' | 'invalid' | null {
  const trimmed = name.trim();
  if (!trimmed) return 'required';
  return MCP_TOOL_NAME.test(trimmed) ? null : 'invalid';
}

/** A name the rule accepts, made from what was typed: other characters become `_`, cut to 64. */
export function sanitizeToolName(name: string): string {
  return name
    .trim()
    .replace(/[^a-zA-Z0-9_-]+/g, '_')
    .slice(0, 64);
}

export interface SchemaField {
  name: string;
  type: string;
  required: boolean;
  description: string;
}

/** The top-level fields of a tool's JSON Schema, for a one-line summary beside the full schema. */
export function schemaFields(schema: Record<string, unknown>): SchemaField[] {
  const properties = schema.properties;
  if (!properties || typeof properties !== 'object') return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  return Object.entries(properties as Record<string, unknown>).map(([name, value]) => {
    const field = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
    const type = Array.isArray(field.enum)
      ? 'enum'
      : typeof field.type === 'string'
        ? field.type
        : Array.isArray(field.type)
          ? field.type.join(' | ')
          : 'any';
    return {
      name,
      type,
      required: required.has(name),
      description: typeof field.description === 'string' ? field.description : '',
    };
  });
}
