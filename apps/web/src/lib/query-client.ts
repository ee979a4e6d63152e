import { MutationCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client.ts';
import { showErrorNotice } from './error-notice.ts';

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: {
      /** false: the caller shows the failure itself (inline, under a field…), so no toast. */
      errorNotice?: boolean;
    };
  }
}

/**
 * A failed mutation shows its error as a toast (unless the API client already handled it, or the
 * mutation says `meta: { errorNotice: false }`). Queries show their failures in place, so they
 * have no global notice. Business failures are answers, not glitches: only transport failures
 * are retried.
 */
export const queryClient = new QueryClient({
  mutationCache: new MutationCache({
    onError: (error, _variables, _result, mutation) => {
      if (mutation.meta?.errorNotice !== false) showErrorNotice(error);
    },
  }),
  defaultOptions: {
    queries: {
      retry: (failureCount, error) => failureCount < 2 && !(error instanceof ApiError && error.kind === 'business'),
      refetchOnWindowFocus: false,
      staleTime: 30_000,
    },
  },
});
