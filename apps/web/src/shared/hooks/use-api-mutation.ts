import type { RouteBody, RouteData, RouteDescriptor } from '@athena/contract';
import { type MutationMeta, useMutation } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';

// `api` spells an optional body as an optional argument; a mutation always passes its variables.
const call = api as <R extends RouteDescriptor>(route: R, body: RouteBody<R>) => Promise<RouteData<R>>;

/**
 * A write of one contract route as a TanStack mutation: `mutate(body)` or `await mutateAsync(body)`.
 * A failure shows the error notice by itself (lib/query-client.ts), so callers only catch to stop;
 * pass `meta: { errorNotice: false }` when the page shows the failure another way (inline).
 */
export function useApiMutation<R extends RouteDescriptor>(route: R, options: { meta?: MutationMeta } = {}) {
  return useMutation<RouteData<R>, Error, RouteBody<R>>({
    mutationFn: (body) => call(route, body),
    meta: options.meta,
  });
}
