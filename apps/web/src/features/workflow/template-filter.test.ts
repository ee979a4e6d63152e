import { WORKFLOW_TEMPLATE_CATEGORIES, type WorkflowTemplate } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { categoriesOf, filterTemplates } from './template-filter.ts';

const template = (
  id: string,
  category: WorkflowTemplate['category'],
  name: string,
  description = '',
): WorkflowTemplate => ({
  id,
  builtin: category !== 'team',
  name,
  description,
  category,
  node_count: 3,
  graph: { version: 1, nodes: [], edges: [] } as unknown as WorkflowTemplate['graph'],
  created_by: null,
  can_delete: category === 'team',
});

const items = [
  template('a', 'customer_service', 'FAQ bot', 'Answers from a knowledge base'),
  template('b', 'content', 'Blog writer', 'Outline, then draft'),
  template('c', 'team', '周报生成', '把本周的要点写成周报'),
];

describe('template filter', () => {
  it('filters by category and by a keyword in the name or description, ignoring case', () => {
    expect(filterTemplates(items, '', '').map((item) => item.id)).toEqual(['a', 'b', 'c']);
    expect(filterTemplates(items, 'content', '').map((item) => item.id)).toEqual(['b']);
    expect(filterTemplates(items, '', 'KNOWLEDGE').map((item) => item.id)).toEqual(['a']);
    expect(filterTemplates(items, '', ' 周报 ').map((item) => item.id)).toEqual(['c']);
    expect(filterTemplates(items, 'team', 'blog')).toEqual([]);
  });

  it('offers only categories that have templates, in the fixed order', () => {
    expect(categoriesOf(items, WORKFLOW_TEMPLATE_CATEGORIES)).toEqual(['content', 'customer_service', 'team']);
  });
});
