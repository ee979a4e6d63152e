import type { CONDITION_OPERATORS, Selector } from '@athena/contract';
import { textOf } from './references.ts';
import { isEmptyValue } from './result.ts';

// If/else cases, list-operator filters and loop break conditions share these operators. Text
// operators work on strings (and on arrays element-wise for contains); number operators parse
// both sides and are false when either is not a number; `in` takes a JSON array or a comma list.

export interface Condition {
  selector: Selector;
  operator: (typeof CONDITION_OPERATORS)[number];
  value: string;
}

export interface ConditionGroup {
  logical_operator: 'and' | 'or';
  conditions: Condition[];
}

const numberOf = (value: unknown): number => {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  return Number.NaN;
};

function listOf(expected: string): string[] {
  const trimmed = expected.trim();
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (Array.isArray(parsed)) return parsed.map(textOf);
    } catch {
      // not JSON: read it as a comma list below
    }
  }
  return trimmed === '' ? [] : trimmed.split(',').map((item) => item.trim());
}

function compare(actual: unknown, expected: string, test: (a: number, b: number) => boolean): boolean {
  const a = numberOf(actual);
  const b = numberOf(expected);
  return !Number.isNaN(a) && !Number.isNaN(b) && test(a, b);
}

function equal(actual: unknown, expected: string): boolean {
  const a = numberOf(actual);
  const b = numberOf(expected);
  if (!Number.isNaN(a) && !Number.isNaN(b)) return a === b;
  return textOf(actual) === expected;
}

/** Whether one condition holds; `expected` is the condition's value with its references rendered. */
export function conditionHolds(operator: Condition['operator'], actual: unknown, expected: string): boolean {
  switch (operator) {
    case 'contains':
    case 'not_contains': {
      const found = Array.isArray(actual)
        ? actual.some((item) => textOf(item) === expected)
        : typeof actual === 'string' && actual.includes(expected);
      return operator === 'contains' ? found : !found;
    }
    case 'starts_with':
      return typeof actual === 'string' && actual.startsWith(expected);
    case 'ends_with':
      return typeof actual === 'string' && actual.endsWith(expected);
    case 'is':
      return textOf(actual) === expected;
    case 'is_not':
      return textOf(actual) !== expected;
    case 'empty':
      return isEmptyValue(actual);
    case 'not_empty':
      return !isEmptyValue(actual);
    case 'eq':
      return equal(actual, expected);
    case 'ne':
      return !equal(actual, expected);
    case 'gt':
      return compare(actual, expected, (a, b) => a > b);
    case 'lt':
      return compare(actual, expected, (a, b) => a < b);
    case 'ge':
      return compare(actual, expected, (a, b) => a >= b);
    case 'le':
      return compare(actual, expected, (a, b) => a <= b);
    case 'in':
      return listOf(expected).includes(textOf(actual));
    case 'not_in':
      return !listOf(expected).includes(textOf(actual));
  }
}

/** Whether a group holds; a group without conditions never does. */
export function groupHolds(
  group: ConditionGroup,
  read: (selector: Selector) => unknown,
  render: (text: string) => string,
): boolean {
  if (group.conditions.length === 0) return false;
  const holds = (condition: Condition) =>
    conditionHolds(condition.operator, read(condition.selector), render(condition.value));
  return group.logical_operator === 'or' ? group.conditions.some(holds) : group.conditions.every(holds);
}
