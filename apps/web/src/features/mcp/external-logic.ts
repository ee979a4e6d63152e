import type { McpExternalServer } from '@athena/contract';

/** One header row of the form: a stored header keeps its value unless a new one is typed. */
export interface HeaderRow {
  name: string;
  value: string;
  /** The server already has a value for it (never shown). */
  stored: boolean;
}

export type ServerStatus = 'off' | 'error' | 'ready' | 'unread';

/** What the status tag says: turned off, failing since its last contact, tools read, or never read. */
export function serverStatus(server: McpExternalServer): ServerStatus {
  if (!server.enabled) return 'off';
  const errorAt = server.last_error ? Date.parse(server.last_error_at ?? '') : Number.NaN;
  const readAt = server.tools_read_at ? Date.parse(server.tools_read_at) : Number.NaN;
  if (server.last_error && !(readAt > errorAt)) return 'error';
  return server.tools_read_at ? 'ready' : 'unread';
}

/** The form's rows for an existing server: names only, values stay on the server. */
export function headerRowsOf(server: McpExternalServer | null): HeaderRow[] {
  return (server?.headers ?? []).map((header) => ({ name: header.name, value: '', stored: header.set }));
}

/**
 * The headers to send: blank rows are dropped; a stored header left empty keeps its value (no
 * `value`), a typed value replaces it.
 */
export function headersToSend(rows: HeaderRow[], editing: boolean) {
  return rows
    .filter((row) => row.name.trim() !== '')
    .map((row) => {
      const name = row.name.trim();
      if (editing && row.stored && row.value === '') return { name };
      return { name, value: row.value };
    });
}

/** The try box's text as tool arguments: a JSON object, or the reason it is not one. */
export function parseArguments(text: string): { ok: true; value: Record<string, unknown> } | { ok: false } {
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      return { ok: true, value: value as Record<string, unknown> };
    }
  } catch {
    // not JSON
  }
  return { ok: false };
}

/** A starting point for the try box from a tool's input schema: each property with an empty value of its type. */
export function argumentsTemplate(schema: Record<string, unknown>): string {
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  const sample: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    const type = Array.isArray(property?.type) ? property.type[0] : property?.type;
    sample[name] =
      type === 'number' || type === 'integer'
        ? 0
        : type === 'boolean'
          ? false
          : type === 'array'
            ? []
            : type === 'object'
              ? {}
              : '';
  }
  return JSON.stringify(sample, null, 2);
}
