import { MCP_LIMITS } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import {
  buildSnippet,
  endpointUrl,
  expiryFor,
  isPickableExpiryDay,
  latestExpiry,
  MCP_REMOTE_HEADER_ARG,
  SNIPPET_CLIENTS,
  sanitizeToolName,
  schemaFields,
  TOKEN_PLACEHOLDER,
  tokenStatus,
  toolNameProblem,
} from './mcp-logic.ts';

const URL = 'https://athena.example.com/mcp/team-1';
const DAY = 24 * 60 * 60 * 1000;

describe('endpointUrl', () => {
  it('joins the origin and the path without a double slash', () => {
    expect(endpointUrl('https://athena.example.com/', '/mcp/team-1')).toBe(URL);
    expect(endpointUrl('http://localhost:3000', '/mcp/x')).toBe('http://localhost:3000/mcp/x');
  });
});

describe('buildSnippet', () => {
  it('gives Cherry Studio streamableHttp with baseUrl and the bearer header', () => {
    expect(JSON.parse(buildSnippet('cherryStudio', URL, 'athmcp_abc'))).toEqual({
      mcpServers: {
        athena: { type: 'streamableHttp', baseUrl: URL, headers: { Authorization: 'Bearer athmcp_abc' } },
      },
    });
  });

  it('gives Cursor url + headers and VS Code servers with type http', () => {
    expect(JSON.parse(buildSnippet('cursor', URL, TOKEN_PLACEHOLDER))).toEqual({
      mcpServers: { athena: { url: URL, headers: { Authorization: `Bearer ${TOKEN_PLACEHOLDER}` } } },
    });
    expect(JSON.parse(buildSnippet('vscode', URL, 't'))).toEqual({
      servers: { athena: { type: 'http', url: URL, headers: { Authorization: 'Bearer t' } } },
    });
  });

  it('bridges Claude Desktop through mcp-remote with the header in an environment variable', () => {
    const config = JSON.parse(buildSnippet('claudeDesktop', URL, 't'));
    expect(config.mcpServers.athena.command).toBe('npx');
    expect(config.mcpServers.athena.args).toEqual(['-y', 'mcp-remote', URL, '--header', MCP_REMOTE_HEADER_ARG]);
    expect(MCP_REMOTE_HEADER_ARG).toBe(['Authorization:$', '{AUTH_HEADER}'].join(''));
    expect(config.mcpServers.athena.env).toEqual({ AUTH_HEADER: 'Bearer t' });
  });

  it('quotes the shell commands', () => {
    expect(buildSnippet('claudeCode', URL, 't')).toBe(
      `claude mcp add --transport http athena '${URL}' --header 'Authorization: Bearer t'`,
    );
    const curl = buildSnippet('curl', URL, TOKEN_PLACEHOLDER);
    expect(curl).toContain(`curl -sS '${URL}'`);
    expect(curl).toContain(`'Authorization: Bearer ${TOKEN_PLACEHOLDER}'`);
    expect(curl).toContain('Accept: application/json, text/event-stream');
    expect(curl).toContain('"method":"tools/list"');
    expect(buildSnippet('curl', "https://x/it's", 't')).toContain(`'https://x/it'\\''s'`);
  });

  it('puts the token into every client', () => {
    for (const client of SNIPPET_CLIENTS) expect(buildSnippet(client, URL, 'athmcp_zz')).toContain('athmcp_zz');
  });
});

describe('expiry', () => {
  const now = new Date(2026, 0, 10, 12, 0, 0).getTime();

  it('counts preset days from now, and never is null', () => {
    expect(expiryFor('30', now)).toBe(new Date(now + 30 * DAY).toISOString());
    expect(expiryFor('365', now)).toBe(new Date(now + 365 * DAY).toISOString());
    expect(expiryFor('never', now)).toBeNull();
  });

  it('ends a custom day at its last second, within the limit', () => {
    const day = new Date(2026, 1, 3);
    expect(expiryFor('custom', now, day)).toBe(new Date(2026, 1, 3, 23, 59, 59).toISOString());
    expect(expiryFor('custom', now, null)).toBeUndefined();
    expect(expiryFor('custom', now, new Date(2026, 0, 9))).toBeUndefined();
    const far = new Date(now + MCP_LIMITS.maxTokenDays * DAY);
    expect(expiryFor('custom', now, far)).toBe(new Date(latestExpiry(now)).toISOString());
  });

  it('lets today up to the limit be picked', () => {
    expect(isPickableExpiryDay(new Date(2026, 0, 10), now)).toBe(true);
    expect(isPickableExpiryDay(new Date(2026, 0, 9), now)).toBe(false);
    expect(isPickableExpiryDay(new Date(now + 300 * DAY), now)).toBe(true);
    expect(isPickableExpiryDay(new Date(now + (MCP_LIMITS.maxTokenDays + 1) * DAY), now)).toBe(false);
  });
});

describe('tokenStatus', () => {
  it('says revoked before expired', () => {
    expect(tokenStatus({ revoked: true, active: false })).toBe('revoked');
    expect(tokenStatus({ revoked: false, active: false })).toBe('expired');
    expect(tokenStatus({ revoked: false, active: true })).toBe('active');
  });
});

describe('tool names', () => {
  it('follows MCP_TOOL_NAME', () => {
    expect(toolNameProblem('knowledge_Island-facts')).toBeNull();
    expect(toolNameProblem('  ')).toBe('required');
    expect(toolNameProblem('岛屿')).toBe('invalid');
    expect(toolNameProblem('a b')).toBe('invalid');
    expect(toolNameProblem('a'.repeat(65))).toBe('invalid');
  });

  it('sanitizes typed names', () => {
    expect(sanitizeToolName(' island facts! ')).toBe('island_facts_');
    expect(sanitizeToolName('x'.repeat(80))).toHaveLength(64);
  });
});

describe('schemaFields', () => {
  it('lists the top-level fields with type and whether required', () => {
    expect(
      schemaFields({
        type: 'object',
        properties: {
          query: { type: 'string', description: 'What to look for' },
          top_k: { type: 'integer' },
          mode: { enum: ['a', 'b'] },
          any: {},
        },
        required: ['query'],
      }),
    ).toEqual([
      { name: 'query', type: 'string', required: true, description: 'What to look for' },
      { name: 'top_k', type: 'integer', required: false, description: '' },
      { name: 'mode', type: 'enum', required: false, description: '' },
      { name: 'any', type: 'any', required: false, description: '' },
    ]);
    expect(schemaFields({})).toEqual([]);
  });
});
