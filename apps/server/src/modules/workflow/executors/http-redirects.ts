import { NodeFailure } from '@athena/workflow-engine';

/** Headers that carry credentials whatever the node calls them. */
export const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'x-api-key'] as const;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** As fetch's own limit. */
export const MAX_REDIRECTS = 20;

export interface HopRequest {
  method: string;
  headers: Headers;
  body: string | undefined;
  signal: AbortSignal;
}

/**
 * Follows redirects one hop at a time, each through `fetcher` (the outbound guard checks every
 * connection). fetch's own `redirect: 'follow'` drops only Authorization when the origin changes;
 * a node's custom auth header (`X-Token: <secret>`) would go on to whatever host the first one
 * names, so every header in `credentials` is dropped there, and stays dropped for later hops.
 */
export async function fetchFollowing(
  fetcher: typeof fetch,
  url: URL,
  request: HopRequest,
  credentials: ReadonlySet<string>,
): Promise<Response> {
  let current = url;
  let { method, body } = request;
  const headers = new Headers(request.headers);
  for (let hops = 0; ; hops++) {
    const response = await fetcher(current, { method, headers, body, signal: request.signal, redirect: 'manual' });
    const location = response.headers.get('location');
    if (!REDIRECT_STATUSES.has(response.status) || location === null) return response;
    await response.body?.cancel().catch(() => {});
    if (hops >= MAX_REDIRECTS) {
      throw new NodeFailure('WORKFLOW_NODE_FAILED', { detail: `more than ${MAX_REDIRECTS} redirects` });
    }
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw new NodeFailure('WORKFLOW_NODE_FAILED', { detail: `a redirect to a bad URL: ${location.slice(0, 200)}` });
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      throw new NodeFailure('WORKFLOW_NODE_FAILED', { detail: `a redirect to ${next.protocol} URLs` });
    }
    if (next.origin !== current.origin) for (const name of credentials) headers.delete(name);
    // As browsers and fetch do: 303 turns into GET, and so do 301 and 302 after a POST.
    const toGet = (response.status === 303 && method !== 'HEAD') || (response.status <= 302 && method === 'POST');
    if (toGet) {
      method = 'GET';
      body = undefined;
      for (const name of ['content-type', 'content-length', 'content-encoding', 'content-language']) {
        headers.delete(name);
      }
    }
    current = next;
  }
}
