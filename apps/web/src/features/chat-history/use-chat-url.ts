import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import {
  type ChatFilters,
  filtersFromSearch,
  NO_FILTERS,
  PARAM,
  type SendTypeOption,
  withFilters,
} from './chat-filters.ts';

const idOf = (value: string | null) => (value && /^\d{1,18}$/.test(value) ? value : null);

/**
 * The page's state that lives in its address: the filters, the open conversation (`c`) and the
 * message it was opened at (`m`, a search hit). Changes replace the entry rather than add one, so
 * Back leaves the page instead of stepping through every keystroke.
 */
export function useChatUrl(sendTypeOptions: readonly SendTypeOption[] | undefined) {
  const [search, setSearch] = useSearchParams();
  const filters = useMemo(() => filtersFromSearch(search, sendTypeOptions), [search, sendTypeOptions]);

  const update = (change: (params: URLSearchParams) => URLSearchParams) =>
    setSearch((previous) => change(new URLSearchParams(previous)), { replace: true });

  return {
    filters,
    conversationId: idOf(search.get(PARAM.conversation)),
    anchorId: idOf(search.get(PARAM.anchor)),
    setFilters: (patch: Partial<ChatFilters>) =>
      update((params) => withFilters(params, { ...filtersFromSearch(params, sendTypeOptions), ...patch })),
    clearFilters: () => update((params) => withFilters(params, NO_FILTERS)),
    open: (id: string, anchorId: string | null) =>
      update((params) => {
        params.set(PARAM.conversation, id);
        if (anchorId) params.set(PARAM.anchor, anchorId);
        else params.delete(PARAM.anchor);
        return params;
      }),
    close: () =>
      update((params) => {
        params.delete(PARAM.conversation);
        params.delete(PARAM.anchor);
        return params;
      }),
    /** Back to the thread's live end after it was opened at a search hit. */
    dropAnchor: () =>
      update((params) => {
        params.delete(PARAM.anchor);
        return params;
      }),
  };
}
