import { afterEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../app/query-client.ts';
import { knowledgeKeys, refreshBase } from './knowledge-queries.ts';

const SPACE = 's-1';
const isStale = (key: readonly unknown[]) => queryClient.getQueryState(key)?.isInvalidated ?? null;

describe('refreshBase (after any segment or file change)', () => {
  afterEach(() => queryClient.clear());

  it('marks the base, its unit list, its single units, its segments and the base lists stale', async () => {
    const segments = [...knowledgeKeys.segments(SPACE, 'k-1'), { page: 1 }];
    queryClient.setQueryData(knowledgeKeys.one(SPACE, 'k-1'), { id: 'k-1' });
    queryClient.setQueryData(knowledgeKeys.units(SPACE, 'k-1'), { items: [] });
    queryClient.setQueryData(knowledgeKeys.unit(SPACE, 'u-1'), { id: 'u-1', knowledge_id: 'k-1', token_count: 170 });
    queryClient.setQueryData(knowledgeKeys.unit(SPACE, 'u-2'), { id: 'u-2', knowledge_id: 'k-2', token_count: 9 });
    queryClient.setQueryData(segments, { items: [] });
    queryClient.setQueryData(knowledgeKeys.list(SPACE, '', ''), { items: [] });

    await refreshBase(SPACE, 'k-1');

    expect(isStale(knowledgeKeys.one(SPACE, 'k-1'))).toBe(true);
    expect(isStale(knowledgeKeys.units(SPACE, 'k-1'))).toBe(true);
    // The segment page's header reads the unit on its own: its token count must follow an edit.
    expect(isStale(knowledgeKeys.unit(SPACE, 'u-1'))).toBe(true);
    expect(isStale(segments)).toBe(true);
    expect(isStale(knowledgeKeys.list(SPACE, '', ''))).toBe(true);
    // Another base's unit is left alone.
    expect(isStale(knowledgeKeys.unit(SPACE, 'u-2'))).toBe(false);
  });
});
