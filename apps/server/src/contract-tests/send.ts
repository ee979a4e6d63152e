import type { TestApp } from '../testing/test-app.ts';
import type { ContractRoute } from './contract-routes.ts';
import { toJsonText } from './zod-arbitrary.ts';

/** One request to a route: a JSON body (a stream's too), or an upload's query, headers and bytes. */
export interface Attempt {
  headers: Record<string, string>;
  /** JSON routes: the body (RawJson pieces allowed); undefined sends no body at all. */
  body?: unknown;
  /** Replaces `application/json` (JSON routes with a body) or `application/octet-stream` (uploads). */
  contentType?: string;
  /** An upload's query: an object of fields, or any hostile value (sent as raw text). */
  query?: unknown;
  bytes?: Buffer;
}

export interface Answer {
  status: number;
  contentType: string;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

const asText = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

/** The query as a client would write it; anything but an object (a hostile value) goes as raw text. */
function queryString(query: unknown): string {
  if (query === undefined) return '';
  if (query === null || typeof query !== 'object' || Array.isArray(query)) {
    return `?${encodeURIComponent(asText(query).replace(/[\uD800-\uDFFF]/g, '?'))}`;
  }
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    // An array is the key repeated (`?a=1&a=2`), which parsers turn into an array again.
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined) params.append(key, asText(item));
    }
  }
  return params.size ? `?${params}` : '';
}

function requestOf(route: ContractRoute, attempt: Attempt) {
  if (route.kind === 'upload') {
    const search = queryString(attempt.query);
    return {
      url: `${route.path}${search}`,
      headers: { 'content-type': attempt.contentType ?? 'application/octet-stream', ...attempt.headers },
      payload: attempt.bytes ?? Buffer.alloc(0),
    };
  }
  const hasBody = attempt.body !== undefined;
  return {
    url: route.path,
    headers: {
      // No body, no content type: what a client sends for a call that takes nothing.
      ...(hasBody ? { 'content-type': attempt.contentType ?? 'application/json' } : {}),
      ...attempt.headers,
    },
    payload: hasBody ? toJsonText(attempt.body) : undefined,
  };
}

/**
 * Sends one attempt through the real app (`app.inject`) and reads the whole answer, a stream to
 * its end; an answer that has not ended within `timeoutMs` fails as a hang.
 */
export async function send(t: TestApp, route: ContractRoute, attempt: Attempt, timeoutMs = 10_000): Promise<Answer> {
  const request = requestOf(route, attempt);
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${route.path} did not finish answering within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    const res = await Promise.race([t.app.inject({ method: 'POST', ...request }), hang]);
    const contentType = String(res.headers['content-type'] ?? '');
    let json: unknown;
    if (contentType.startsWith('application/json')) {
      try {
        json = JSON.parse(res.body);
      } catch {
        json = undefined;
      }
    }
    return { status: res.statusCode, contentType, text: res.body, json };
  } finally {
    clearTimeout(timer);
  }
}
