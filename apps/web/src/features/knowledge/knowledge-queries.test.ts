import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { refreshBase } from './knowledge-queries.ts';

const SPACE = 's-1';
const isStale = (key: readonly unknown[]) => queryClient.getQueryState(key)?.isInvalidated ?? null;

describe('refreshBase (after any segment or file change)', () => {
  afterEach(() => queryClient.clear());

  it('marks the base, its unit list, its single units, its segments and the base lists stale', async () => {
    const segments = [...queryKeys.knowledge.segments(SPACE, 'k-1'), { page: 1 }];
    queryClient.setQueryData(queryKeys.knowledge.detail(SPACE, 'k-1'), { id: 'k-1' });
    queryClient.setQueryData(queryKeys.knowledge.units(SPACE, 'k-1'), { items: [] });
    queryClient.setQueryData(queryKeys.knowledge.unit(SPACE, 'u-1'), {
      id: 'u-1',
      knowledge_id: 'k-1',
      token_count: 170,
    });
    queryClient.setQueryData(queryKeys.knowledge.unit(SPACE, 'u-2'), {
      id: 'u-2',
      knowledge_id: 'k-2',
      token_count: 9,
    });
    queryClient.setQueryData(segments, { items: [] });
    queryClient.setQueryData(queryKeys.knowledge.list(SPACE, '', ''), { items: [] });

    await refreshBase(SPACE, 'k-1');

    expect(isStale(queryKeys.knowledge.detail(SPACE, 'k-1'))).toBe(true);
    expect(isStale(queryKeys.knowledge.units(SPACE, 'k-1'))).toBe(true);
    // The segment page's header reads the unit on its own: its token count must follow an edit.
    expect(isStale(queryKeys.knowledge.unit(SPACE, 'u-1'))).toBe(true);
    expect(isStale(segments)).toBe(true);
    expect(isStale(queryKeys.knowledge.list(SPACE, '', ''))).toBe(true);
    // Another base's unit is left alone.
    expect(isStale(queryKeys.knowledge.unit(SPACE, 'u-2'))).toBe(false);
  });
});
