import type { Selector, WorkflowNodeData } from '@athena/contract';
import { type CONDITION_OPERATORS, WORKFLOW_LIMITS } from '@athena/contract';
import { adjusted, type MappedNode, type NodeInfo, requiredSelector, UNSET_SELECTOR, valueType } from './node-parts.ts';
import type { Conversion } from './references.ts';
import { asText, bool, cut, list, num, type Rec, rec, str } from './values.ts';

type Condition = WorkflowNodeData<'if_else'>['cases'][number]['conditions'][number];
type Operator = (typeof CONDITION_OPERATORS)[number];
type AssignItem = WorkflowNodeData<'assigner'>['items'][number];

/** Dify's comparison operators (the symbols and spaced words its editor writes) as ours. */
const OPERATORS: Record<string, Operator> = {
  contains: 'contains',
  'not contains': 'not_contains',
  'start with': 'starts_with',
  'end with': 'ends_with',
  is: 'is',
  'is not': 'is_not',
  empty: 'empty',
  'not empty': 'not_empty',
  null: 'empty',
  'not null': 'not_empty',
  exists: 'not_empty',
  'not exists': 'empty',
  '=': 'eq',
  '≠': 'ne',
  '!=': 'ne',
  '>': 'gt',
  '<': 'lt',
  '≥': 'ge',
  '>=': 'ge',
  '≤': 'le',
  '<=': 'le',
  in: 'in',
  'not in': 'not_in',
};

/** Conditions in our terms; one whose operator we lack is left out, with a note naming it. */
function conditions(raw: unknown, c: Conversion, node: NodeInfo, selectorOf: (condition: Rec) => Selector | null) {
  const out: Condition[] = [];
  for (const item of list(raw)) {
    const condition = rec(item);
    const difyOperator = str(condition.comparison_operator);
    const operator = OPERATORS[difyOperator];
    const selector = selectorOf(condition);
    if (!operator || !selector) {
      c.note('WORKFLOW_IMPORT_SETTING_DROPPED', { node: node.label, setting: `condition "${difyOperator}"` }, node.id);
      continue;
    }
    const value = Array.isArray(condition.value) ? JSON.stringify(condition.value) : asText(condition.value);
    out.push({ selector, operator, value: c.text(value, 10_000) });
  }
  return out.slice(0, 50);
}

const logical = (raw: unknown): 'and' | 'or' => (str(raw) === 'or' ? 'or' : 'and');

/**
 * Both of Dify's shapes: `cases` (each with its own handle), and the single condition list of
 * 0.1.x files whose handles are `true` and `false`. Dify's `false` is our `else` (the edges say so).
 */
export function ifElseNode(data: Rec, c: Conversion, node: NodeInfo): MappedNode {
  const bySelector = (condition: Rec) => c.selector(condition.variable_selector);
  const difyCases = list(data.cases).length > 0 ? list(data.cases) : [{ case_id: 'true', ...data }];
  const cases = difyCases.slice(0, 20).map((raw, index) => {
    const difyCase = rec(raw);
    return {
      id: cut(str(difyCase.case_id) || str(difyCase.id), 64) || `case_${index + 1}`,
      logical_operator: logical(difyCase.logical_operator),
      conditions: conditions(difyCase.conditions, c, node, bySelector),
    };
  });
  if (cases.every((item) => item.conditions.length === 0))
    c.note('WORKFLOW_NODE_INCOMPLETE', { node: node.label, field: 'conditions' }, node.id);
  return { type: 'if_else', data: { cases } };
}

/** Dify's variable aggregator (called variable-assigner before 0.1.5) joins exclusive branches. */
export function aggregatorNode(data: Rec, c: Conversion, node: NodeInfo): MappedNode {
  const advanced = rec(data.advanced_settings);
  const groups = bool(advanced.group_enabled) ? list(advanced.groups).map(rec) : [];
  if (groups.length > 1)
    c.note('WORKFLOW_IMPORT_SETTING_DROPPED', { node: node.label, setting: 'variable groups' }, node.id);
  const source = groups[0] ?? data;
  const selectors = list(source.variables)
    .map((raw) => c.selector(raw))
    .filter((selector): selector is Selector => selector !== null)
    .slice(0, 50);
  if (selectors.length === 0) c.note('WORKFLOW_NODE_INCOMPLETE', { node: node.label, field: 'variables' }, node.id);
  return {
    type: 'aggregator',
    data: {
      selectors: selectors.length > 0 ? selectors : [UNSET_SELECTOR],
      output_type: valueType(source.output_type),
    },
  };
}

const ASSIGN_OPERATIONS: Record<string, AssignItem['operation']> = {
  'over-write': 'set',
  set: 'set',
  clear: 'clear',
  append: 'append',
  extend: 'extend',
  '+=': 'add',
  '-=': 'subtract',
};

/** Both shapes: version 2's `items`, and the single target/source/write mode before it. */
export function assignerNode(data: Rec, c: Conversion, node: NodeInfo): MappedNode | null {
  const difyItems = Array.isArray(data.items)
    ? data.items.map(rec)
    : [
        {
          variable_selector: data.assigned_variable_selector,
          operation: data.write_mode,
          input_type: 'variable',
          value: data.input_variable_selector,
        },
      ];
  const items: AssignItem[] = [];
  for (const item of difyItems) {
    const operation = ASSIGN_OPERATIONS[str(item.operation)];
    const target = c.selector(item.variable_selector);
    if (!operation || !target) {
      c.note('WORKFLOW_IMPORT_SETTING_DROPPED', { node: node.label, setting: `"${str(item.operation)}"` }, node.id);
      continue;
    }
    const fromVariable = str(item.input_type) === 'variable' && operation !== 'clear';
    items.push({
      target,
      operation,
      source: fromVariable ? requiredSelector(item.value, c, node, 'value') : null,
      constant: fromVariable ? '' : cut(asText(item.value), 10_000),
    });
  }
  if (items.length === 0) return null;
  return { type: 'assigner', data: { items: items.slice(0, 50) } };
}

/** The item under test is `[listOperatorId, 'item']`, or a key of it. */
export function listOperatorNode(data: Rec, c: Conversion, node: NodeInfo): MappedNode {
  const filter = rec(data.filter_by);
  const order = rec(data.order_by);
  const limit = rec(data.limit);
  const size = num(limit.size);
  const itemSelector = (condition: Rec): Selector =>
    str(condition.key) ? [node.id, 'item', cut(str(condition.key), 128)] : [node.id, 'item'];
  if (bool(rec(data.extract_by).enabled))
    c.note('WORKFLOW_IMPORT_SETTING_DROPPED', { node: node.label, setting: 'extract_by' }, node.id);
  return {
    type: 'list_operator',
    data: {
      list: requiredSelector(data.variable, c, node, 'variable'),
      filter: bool(filter.enabled)
        ? {
            logical_operator: logical(filter.logical_operator),
            conditions: conditions(filter.conditions, c, node, itemSelector),
          }
        : null,
      sort: bool(order.enabled)
        ? { key: cut(str(order.key), 128), order: str(order.value) === 'desc' ? 'desc' : 'asc' }
        : null,
      limit: bool(limit.enabled) && size !== null ? adjusted(size, 1, 10_000, c, node, 'limit') : null,
    },
  };
}

const ERROR_MODES: Record<string, WorkflowNodeData<'iteration'>['error_mode']> = {
  terminated: 'terminate',
  'continue-on-error': 'continue',
  'remove-abnormal-output': 'remove',
};

export function iterationNode(data: Rec, c: Conversion, node: NodeInfo): MappedNode {
  const parallel = num(data.parallel_nums);
  return {
    type: 'iteration',
    data: {
      list: requiredSelector(data.iterator_selector, c, node, 'iterator'),
      output: requiredSelector(data.output_selector, c, node, 'output'),
      parallel: bool(data.is_parallel),
      parallel_limit:
        parallel === null
          ? 4
          : adjusted(parallel, 1, WORKFLOW_LIMITS.iterationParallelCeiling, c, node, 'parallel_nums'),
      error_mode: ERROR_MODES[str(data.error_handle_mode)] ?? 'terminate',
    },
  };
}

/** A loop variable whose start is another variable starts from a reference to it. */
export function loopNode(data: Rec, c: Conversion, node: NodeInfo): MappedNode {
  const variables = list(data.loop_variables)
    .map(rec)
    .filter((variable) => str(variable.label) !== '')
    .slice(0, 20)
    .map((variable) => {
      const fromVariable = str(variable.value_type) === 'variable' ? c.selector(variable.value) : null;
      return {
        name: cut(str(variable.label), 64),
        type: valueType(variable.var_type),
        initial: fromVariable ? cut(`{{#${fromVariable.join('.')}#}}`, 10_000) : cut(asText(variable.value), 10_000),
      };
    });
  const count = num(data.loop_count);
  return {
    type: 'loop',
    data: {
      variables,
      break_when: {
        logical_operator: logical(data.logical_operator),
        conditions: conditions(data.break_conditions, c, node, (condition) => c.selector(condition.variable_selector)),
      },
      max_count: count === null ? 10 : adjusted(count, 1, WORKFLOW_LIMITS.loopMaxCountCeiling, c, node, 'loop_count'),
    },
  };
}
