import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../lib/api-client.ts';

/** Business failures are answers, not glitches: only transport failures are retried. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (failureCount, error) => failureCount < 2 && !(error instanceof ApiError && error.kind === 'business'),
      refetchOnWindowFocus: false,
      staleTime: 30_000,
    },
  },
});
