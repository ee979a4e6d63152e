import type { Selector } from '@athena/contract';
import { groupHolds } from '../conditions.ts';
import { walk } from '../pool.ts';
import { renderReferences } from '../references.ts';
import { NodeFailure } from '../types.ts';
import { type Builtin, titleOf } from './context.ts';

// Filters, sorts and cuts a list. In the filter, `[thisNodeId, 'item', ...key]` is the item tested.

function order(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (a === undefined || a === null) return b === undefined || b === null ? 0 : 1;
  if (b === undefined || b === null) return -1;
  return String(a).localeCompare(String(b));
}

export const listOperatorNode: Builtin<'list_operator'> = ({ node, read }) => {
  const { data } = node;
  const list = read(data.list);
  if (!Array.isArray(list)) {
    throw new NodeFailure('WORKFLOW_LIST_EXPECTED', { node: titleOf(node), selector: data.list.join('.') });
  }
  let result = list;
  const filter = data.filter;
  if (filter && filter.conditions.length > 0) {
    result = result.filter((item) => {
      const readItem = (selector: Selector) =>
        selector[0] === node.id && selector[1] === 'item' ? walk(item, selector.slice(2)) : read(selector);
      return groupHolds(filter, readItem, (text) => renderReferences(text, readItem));
    });
  }
  if (data.sort) {
    const key = data.sort.key;
    const sign = data.sort.order === 'desc' ? -1 : 1;
    const sortValue = (item: unknown) => (key ? walk(item, key.split('.')) : item);
    result = [...result].sort((a, b) => sign * order(sortValue(a), sortValue(b)));
  }
  if (data.limit !== null) result = result.slice(0, data.limit);
  return {
    outputs: { result, first: result[0] ?? null, last: result[result.length - 1] ?? null },
    inputs: { count: list.length },
  };
};
