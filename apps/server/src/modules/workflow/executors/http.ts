import type { WorkflowNodeData } from '@athena/contract';
import { type NodeContext, type NodeExecutor, NodeFailure } from '@athena/workflow-engine';
import { BlockedAddressError } from '../../../platform/llm/outbound-guard.ts';
import { CREDENTIAL_HEADERS, fetchFollowing } from './http-redirects.ts';

/** The most of a response body a node keeps; the rest is dropped and the outputs say so. */
export const HTTP_BODY_CAP_BYTES = 1_000_000;

export interface HttpDeps {
  /** The outbound guard's fetch: every connection, redirects included, to public addresses only. */
  fetch: typeof fetch;
}

type HttpData = WorkflowNodeData<'http'>;

/** The request a node sends, and the same request as its record shows it (secrets masked before encoding). */
function requestOf(data: HttpData, ctx: NodeContext<'http'>) {
  const { render, mask } = ctx;
  let url: URL;
  const written = render(data.url).trim();
  try {
    url = new URL(written);
  } catch {
    throw new NodeFailure('WORKFLOW_NODE_FAILED', { detail: `not a URL: ${written.slice(0, 200)}` });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new NodeFailure('WORKFLOW_NODE_FAILED', { detail: `only http and https URLs: ${url.protocol}` });
  }
  // The URL encodes what it is given (`ab/c+d=` becomes `ab%2Fc%2Bd%3D`), and masking is an exact
  // match: the record's URL is built from values masked while still as written.
  let shown: URL | null = null;
  try {
    shown = new URL(mask(written));
  } catch {
    // a mask inside the host can make it unparsable; the run's masker then has the encoded URL
  }
  for (const param of data.params) {
    if (!param.key) continue;
    const value = render(param.value);
    url.searchParams.append(param.key, value);
    shown?.searchParams.append(mask(param.key), mask(value));
  }
  const headers = new Headers();
  for (const header of data.headers) if (header.key) headers.set(header.key, render(header.value));
  const { auth } = data;
  if (auth.type === 'bearer') headers.set('authorization', `Bearer ${render(auth.token)}`);
  if (auth.type === 'basic') {
    const pair = `${render(auth.username)}:${render(auth.password)}`;
    const encoded = Buffer.from(pair).toString('base64');
    // A server that echoes the request back would otherwise show the secret in base64.
    ctx.maskDerived(pair, encoded);
    headers.set('authorization', `Basic ${encoded}`);
  }
  if (auth.type === 'header' && auth.header) headers.set(auth.header, render(auth.value));
  let body: string | undefined;
  const canHaveBody = data.method !== 'GET' && data.method !== 'HEAD';
  if (canHaveBody && data.body.type !== 'none') {
    body = render(data.body.data);
    const type = {
      json: 'application/json',
      'form-urlencoded': 'application/x-www-form-urlencoded',
      raw: 'text/plain',
    };
    if (!headers.has('content-type')) headers.set('content-type', type[data.body.type]);
  }
  // Headers that must not reach another origin after a redirect: credentials, the auth header the
  // node names, and any header whose value holds a secret.
  const credentials = new Set<string>(CREDENTIAL_HEADERS);
  if (auth.type === 'header' && auth.header) credentials.add(auth.header.toLowerCase());
  for (const [name, value] of headers) if (mask(value) !== value) credentials.add(name);
  return { url, shownUrl: shown?.toString() ?? url.toString(), headers, body, credentials };
}

/** Reads at most `cap` bytes of a body, then lets the rest go. */
async function readCapped(response: Response, cap: number) {
  if (!response.body) return { text: '', truncated: false, bytes: 0 };
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let bytes = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = cap - bytes;
    if (value.byteLength > room) {
      parts.push(value.subarray(0, room));
      bytes += room;
      truncated = true;
      await reader.cancel().catch(() => {});
      break;
    }
    parts.push(value);
    bytes += value.byteLength;
  }
  // A cut may split a character; the decoder writes U+FFFD for the half, which is storable.
  return { text: new TextDecoder().decode(Buffer.concat(parts)), truncated, bytes };
}

/** Headers as written in the run's record: secrets in them are the workflow author's own, but masked. */
const SECRET_HEADERS = new Set<string>(CREDENTIAL_HEADERS);
const shownHeaders = (headers: Headers) =>
  Object.fromEntries([...headers].map(([name, value]) => [name, SECRET_HEADERS.has(name) ? '***' : value]));

/**
 * An HTTP request node. Every hop goes through the outbound guard (private, loopback and metadata
 * addresses are refused with WORKFLOW_HTTP_ADDRESS_BLOCKED, redirects included), and credentials
 * stay with the origin they were written for; the node's timeout covers the whole exchange; a body
 * over 1 MB is cut and `truncated` says so.
 */
export function httpExecutor(deps: HttpDeps): NodeExecutor<'http'> {
  return async (ctx) => {
    const { data } = ctx.node;
    const { url, shownUrl, headers, body, credentials } = requestOf(data, ctx);
    const inputs = { method: data.method, url: shownUrl, headers: shownHeaders(headers), body: body ?? '' };
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(data.timeout_ms)]);
    try {
      const request = { method: data.method, headers, body, signal };
      const response = await fetchFollowing(deps.fetch, url, request, credentials);
      const read = await readCapped(response, HTTP_BODY_CAP_BYTES);
      const outputs: Record<string, unknown> = {
        status_code: response.status,
        body: read.text,
        headers: Object.fromEntries(response.headers),
        truncated: read.truncated,
      };
      if (read.truncated) outputs.note = `the body was cut at ${HTTP_BODY_CAP_BYTES} bytes`;
      return { outputs, inputs };
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      // Not ADDRESS_BLOCKED: its message tells an operator how to let model endpoints reach
      // private addresses, which never applies to a workflow's URLs.
      const blocked = blockedOf(error);
      if (blocked) throw new NodeFailure('WORKFLOW_HTTP_ADDRESS_BLOCKED', { host: blocked.address }, blocked.message);
      if (signal.aborted) throw new NodeFailure('WORKFLOW_NODE_TIMEOUT', { ms: data.timeout_ms });
      throw new NodeFailure('WORKFLOW_NODE_FAILED', { detail: causeMessage(error) || 'the request failed' });
    }
  };
}

/** The guard's refusal in an error chain (fetch wraps it in "fetch failed"), or null. */
function blockedOf(error: unknown): BlockedAddressError | null {
  for (let current = error, depth = 0; current && depth < 6; depth++) {
    if (current instanceof BlockedAddressError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/** The innermost message of an error chain (fetch wraps the network's reason in "fetch failed"). */
function causeMessage(error: unknown): string {
  let message = '';
  for (let current = error, depth = 0; current && depth < 6; depth++) {
    if (current instanceof Error && current.message) message = current.message;
    current = (current as { cause?: unknown }).cause;
  }
  return message.slice(0, 300);
}
