import type { Selector } from '@athena/contract';
import type { Frame } from '../pool.ts';
import type { RunState } from '../run-state.ts';
import { NodeFailure } from '../types.ts';
import type { Builtin } from './context.ts';

// The assigner writes a loop's variables (inside its body), an environment variable for the rest
// of the run (Dify's conversation variables come in as those), or an upstream node's output. A
// node's outputs are replaced, never changed in place, because events already handed them out.

type Holder = { values: Record<string, unknown>; replace: (next: Record<string, unknown>) => void };

function holderFor(frame: Frame, run: RunState, head: string): Holder | null {
  if (head === 'env') return { values: run.globals.env, replace: () => {} };
  for (let at: Frame | null = frame; at; at = at.parent) {
    if (at.scope?.node_id === head) return { values: at.scope.values, replace: () => {} };
    const outputs = at.outputs.get(head);
    if (outputs) {
      const copy = { ...outputs };
      const holder = at;
      return { values: copy, replace: (next) => holder.outputs.set(head, next) };
    }
  }
  return null;
}

/** A constant typed like the value it replaces: numbers stay numbers, lists and objects parse JSON. */
function typedLike(current: unknown, text: string): unknown {
  if (typeof current === 'number') {
    const value = Number(text);
    return text.trim() !== '' && Number.isFinite(value) ? value : text;
  }
  if (typeof current === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  if (current !== null && typeof current === 'object') {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

function emptyLike(current: unknown): unknown {
  if (Array.isArray(current)) return [];
  if (typeof current === 'string') return '';
  if (typeof current === 'number') return 0;
  if (current !== null && typeof current === 'object') return {};
  return null;
}

const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : value == null ? [] : [value]);

function numberFor(value: unknown, selector: Selector): number {
  const number = typeof value === 'string' && value.trim() ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) {
    throw new NodeFailure('WORKFLOW_NODE_FAILED', { detail: `${selector.join('.')} is not a number` });
  }
  return number;
}

export const assignerNode: Builtin<'assigner'> = ({ node, read, render, frame, run }) => {
  const written: Record<string, unknown> = {};
  for (const item of node.data.items) {
    const [head, name] = item.target as [string, string];
    const holder = holderFor(frame, run, head);
    if (!holder) {
      throw new NodeFailure('WORKFLOW_NODE_FAILED', { detail: `nothing to write at ${item.target.join('.')}` });
    }
    const current = holder.values[name];
    const source = item.source ? read(item.source) : typedLike(current, render(item.constant));
    let next: unknown;
    switch (item.operation) {
      case 'set':
        next = source;
        break;
      case 'append':
        next = [...listOf(current), source];
        break;
      case 'extend':
        next = [...listOf(current), ...listOf(source)];
        break;
      case 'clear':
        next = emptyLike(current);
        break;
      case 'add':
      case 'subtract': {
        const delta = numberFor(source, item.source ?? item.target);
        const base = current === undefined || current === null ? 0 : numberFor(current, item.target);
        next = item.operation === 'add' ? base + delta : base - delta;
        break;
      }
    }
    holder.values[name] = next;
    holder.replace(holder.values);
    written[item.target.join('.')] = next;
  }
  return { outputs: {}, inputs: written };
};
