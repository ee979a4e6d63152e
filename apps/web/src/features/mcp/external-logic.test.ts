import type { McpExternalServer } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { argumentsTemplate, headerRowsOf, headersToSend, parseArguments, serverStatus } from './external-logic.ts';

const server = (over: Partial<McpExternalServer> = {}): McpExternalServer => ({
  id: 's1',
  name: 'Local',
  url: 'https://example.com/mcp',
  transport: 'streamable_http',
  enabled: true,
  headers: [{ name: 'Authorization', set: true }],
  tools_count: 0,
  tools_read_at: null,
  last_error: '',
  last_error_at: null,
  calls: 0,
  errors: 0,
  last_called_at: null,
  created_by: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...over,
});

describe('external MCP server helpers', () => {
  it('says whether a server is off, failing, read or not read yet', () => {
    expect(serverStatus(server())).toBe('unread');
    expect(serverStatus(server({ enabled: false, last_error: 'x' }))).toBe('off');
    const read = { tools_read_at: '2026-01-02T00:00:00.000Z', tools_count: 3 };
    expect(serverStatus(server(read))).toBe('ready');
    expect(serverStatus(server({ ...read, last_error: 'down', last_error_at: '2026-01-03T00:00:00.000Z' }))).toBe(
      'error',
    );
    // Read again after the error: the error is history.
    expect(serverStatus(server({ ...read, last_error: 'down', last_error_at: '2026-01-01T12:00:00.000Z' }))).toBe(
      'ready',
    );
  });

  it('keeps stored header values unless a new one is typed, and drops blank rows', () => {
    const rows = headerRowsOf(
      server({
        headers: [
          { name: 'Authorization', set: true },
          { name: 'X-Empty', set: false },
        ],
      }),
    );
    expect(rows).toEqual([
      { name: 'Authorization', value: '', stored: true },
      { name: 'X-Empty', value: '', stored: false },
    ]);
    const edited = [
      ...rows,
      { name: ' X-New ', value: 'v', stored: false },
      { name: ' ', value: 'lost', stored: false },
    ];
    expect(headersToSend(edited, true)).toEqual([
      { name: 'Authorization' },
      { name: 'X-Empty', value: '' },
      { name: 'X-New', value: 'v' },
    ]);
    expect(headersToSend([{ name: 'Authorization', value: 'new', stored: true }], true)).toEqual([
      { name: 'Authorization', value: 'new' },
    ]);
    expect(headersToSend([{ name: 'A', value: '', stored: false }], false)).toEqual([{ name: 'A', value: '' }]);
  });

  it('reads the try box as a JSON object only', () => {
    expect(parseArguments('')).toEqual({ ok: true, value: {} });
    expect(parseArguments('{"a": 1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseArguments('[1]')).toEqual({ ok: false });
    expect(parseArguments('null')).toEqual({ ok: false });
    expect(parseArguments('{oops')).toEqual({ ok: false });
  });

  it('starts the try box from the input schema', () => {
    const schema = {
      type: 'object',
      properties: {
        text: { type: 'string' },
        n: { type: 'integer' },
        on: { type: 'boolean' },
        list: { type: 'array' },
      },
    };
    expect(JSON.parse(argumentsTemplate(schema))).toEqual({ text: '', n: 0, on: false, list: [] });
    expect(argumentsTemplate({})).toBe('{}');
  });
});
