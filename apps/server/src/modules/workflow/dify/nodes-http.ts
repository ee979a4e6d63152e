import type { WorkflowNodeData } from '@athena/contract';
import { dropped, type MappedNode, type NodeInfo } from './node-parts.ts';
import type { Conversion } from './references.ts';
import { clamp, cut, num, type Rec, rec, str } from './values.ts';

type Http = WorkflowNodeData<'http'>;
const METHODS: Http['method'][] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];

/** Header and parameter names whose values are credentials: `X-API-Key`, `access_token`, `Cookie`… */
const SECRET_NAME = /key|token|secret|auth|passw|cookie|credential/i;

/**
 * A credential the author typed into the node travels with every export of a Dify app: here it
 * leaves the node for a secret environment variable (never shown again, exported or logged) that
 * the node reads instead, and a note asks the person to confirm it. A value that only reads
 * variables (`{{#env.KEY#}}`) holds no credential and stays.
 */
function sealed(value: string, field: string, c: Conversion, node: NodeInfo): string {
  if (value.trim() === '' || value.includes('{{#')) return value;
  const env = c.moveSecret(`${node.id}_${field}`, value);
  if (env) {
    c.note('WORKFLOW_IMPORT_SECRET_MOVED', { node: node.label, field, env }, node.id);
    return `{{#env.${env}#}}`;
  }
  c.note('WORKFLOW_IMPORT_SECRET_LEFT_OUT', { node: node.label, field }, node.id);
  return '';
}

const sealedPairs = (list: { key: string; value: string }[], c: Conversion, node: NodeInfo) =>
  list.map((pair) => (SECRET_NAME.test(pair.key) ? { ...pair, value: sealed(pair.value, pair.key, c, node) } : pair));

/** Dify keeps headers and query parameters as lines of `key:value`. */
function pairs(raw: unknown, c: Conversion) {
  return str(raw)
    .split('\n')
    .map((line) => {
      const colon = line.indexOf(':');
      return colon < 0
        ? { key: line.trim(), value: '' }
        : { key: line.slice(0, colon).trim(), value: line.slice(colon + 1) };
    })
    .filter((pair) => pair.key !== '')
    .slice(0, 50)
    .map((pair) => ({ key: cut(pair.key, 200), value: c.text(pair.value.trim(), 4_000) }));
}

/**
 * Dify's body: before 0.1.4 `data` is text (form bodies as `key:value` lines), later a list of
 * `{key, type, value}`. Form fields become `key=value&…`; file fields cannot come along.
 */
function body(raw: unknown, c: Conversion, node: NodeInfo): Http['body'] {
  const difyBody = rec(raw);
  const type = str(difyBody.type);
  const items = Array.isArray(difyBody.data) ? difyBody.data.map(rec) : null;
  const textOf = () => c.text(items ? str(items[0]?.value) : difyBody.data, 1_000_000);
  if (type === 'json') return { type: 'json', data: textOf() };
  if (type === 'raw-text') return { type: 'raw', data: textOf() };
  if (type === 'x-www-form-urlencoded' || type === 'form-data') {
    const fields = items
      ? items.map((item) => ({ key: str(item.key), value: str(item.value), file: str(item.type) === 'file' }))
      : pairs(difyBody.data, c).map((pair) => ({ ...pair, file: false }));
    dropped(c, node, [
      [fields.some((field) => field.file), 'file fields'],
      [type === 'form-data', 'multipart form-data'],
    ]);
    const data = fields
      .filter((field) => !field.file && field.key !== '')
      .map((field) => `${field.key}=${c.text(field.value)}`)
      .join('&');
    return { type: 'form-urlencoded', data: cut(data, 1_000_000) };
  }
  dropped(c, node, [[type === 'binary', 'binary body']]);
  return { type: 'none', data: '' };
}

/** An API key of Dify's kinds (bearer, basic with `user:password`, a custom header), sealed. */
function auth(raw: unknown, c: Conversion, node: NodeInfo): Http['auth'] {
  const authorization = rec(raw);
  if (str(authorization.type) !== 'api-key') return { type: 'none' };
  const config = rec(authorization.config);
  const key = str(config.api_key);
  const kind = str(config.type);
  if (kind === 'basic') {
    const colon = key.indexOf(':');
    return {
      type: 'basic',
      username: c.text(colon < 0 ? key : key.slice(0, colon), 1_000),
      password: sealed(c.text(colon < 0 ? '' : key.slice(colon + 1), 1_000), 'Authorization', c, node),
    };
  }
  if (kind === 'custom') {
    const header = cut(str(config.header) || 'Authorization', 200);
    return { type: 'header', header, value: sealed(c.text(key, 4_000), header, c, node) };
  }
  return { type: 'bearer', token: sealed(c.text(key, 4_000), 'Authorization', c, node) };
}

/** Dify's timeouts are seconds per phase; ours is one limit for the whole request. */
function timeoutMs(raw: unknown): number {
  const timeout = rec(raw);
  const seconds = ['max_read_timeout', 'read', 'max_connect_timeout', 'connect', 'max_write_timeout', 'write']
    .map((field) => num(timeout[field]) ?? 0)
    .reduce((longest, value) => Math.max(longest, value), 0);
  return seconds > 0 ? clamp(Math.round(seconds * 1_000), 100, 300_000) : 30_000;
}

export function httpNode(data: Rec, c: Conversion, node: NodeInfo): MappedNode {
  const difyMethod = str(data.method).toUpperCase();
  const method = METHODS.find((known) => known === difyMethod) ?? 'GET';
  if (method !== difyMethod)
    c.note(
      'WORKFLOW_IMPORT_VALUE_ADJUSTED',
      { node: node.label, setting: 'method', from: difyMethod || '-', to: method },
      node.id,
    );
  dropped(c, node, [[data.ssl_verify === false, 'ssl_verify']]);
  return {
    type: 'http',
    data: {
      method,
      url: c.text(data.url, 4_000),
      headers: sealedPairs(pairs(data.headers, c), c, node),
      params: sealedPairs(pairs(data.params, c), c, node),
      body: body(data.body, c, node),
      auth: auth(data.authorization, c, node),
      timeout_ms: timeoutMs(data.timeout),
    },
  };
}

/** What an unsupported node did, in a line the placeholder shows. */
export function summaryOf(type: string, data: Rec): string {
  if (type === 'tool') {
    const provider = str(data.provider_name) || str(data.provider_id);
    const tool = str(data.tool_label) || str(data.tool_name);
    return [provider, tool].filter(Boolean).join(' / ');
  }
  if (type === 'agent')
    return [str(data.agent_strategy_provider_name), str(data.agent_strategy_label) || str(data.agent_strategy_name)]
      .filter(Boolean)
      .join(' / ');
  return str(data.desc);
}
