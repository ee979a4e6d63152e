import { describe, expect, it } from 'vitest';
import { buildHref, isExternalUrl } from './navigation.ts';

describe('navigation helper', () => {
  it('builds a named route with params, query and hash', () => {
    expect(
      buildHref('knowledgeUnit', {
        params: { knowledgeId: 'k 1', unitId: 7 },
        query: { page: 2, q: 'a&b', empty: undefined },
        hash: 'seg-3',
      }),
    ).toBe('/knowledge/k%201/7?page=2&q=a%26b#seg-3');
  });

  it('builds a plain route', () => {
    expect(buildHref('dashboard')).toBe('/dashboard');
    expect(buildHref('workflowGroup', { params: { groupId: 'g' } })).toBe('/AIWorkflow/group/g');
  });

  it('treats only http(s) URLs as external', () => {
    expect(isExternalUrl('https://example.com/x')).toBe(true);
    expect(isExternalUrl('HTTP://example.com')).toBe(true);
    expect(isExternalUrl('/dashboard')).toBe(false);
    expect(isExternalUrl('javascript:alert(1)')).toBe(false);
  });
});
