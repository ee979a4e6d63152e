import type { Envelope, RouteBody, RouteData, RouteDescriptor } from '@athena/contract';
import { expect } from 'vitest';
import { baseUrl } from './browser.ts';

/** A product API call with a session (token, space-id, scene-id headers), typed by its contract route; it must succeed. */
export async function callApi<R extends RouteDescriptor>(
  route: R,
  body: RouteBody<R>,
  headers: Record<string, string>,
): Promise<RouteData<R>> {
  const res = await fetch(`${baseUrl()}${route.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as Envelope<RouteData<R>>;
  expect(answer.code, `${route.path}: ${answer.msg}`).toBe(0);
  return answer.data;
}
