import type { ValueType } from '@athena/contract';
import { groupHolds } from '../conditions.ts';
import { childFrame } from '../pool.ts';
import { renderReferences } from '../references.ts';
import { NodeFailure } from '../types.ts';
import type { Builtin } from './context.ts';

// Runs the body round after round with the loop's variables (which the body's assigners change),
// until the break condition holds after a round or max_count rounds have run.

function initialValue(type: ValueType, text: string): unknown {
  switch (type) {
    case 'number': {
      const value = Number(text);
      return text.trim() !== '' && Number.isFinite(value) ? value : 0;
    }
    case 'boolean':
      return text.trim() === 'true';
    case 'string':
      return text;
    case 'array':
    case 'object':
    case 'file':
    case 'any':
      try {
        return text.trim() ? (JSON.parse(text) as unknown) : type === 'array' ? [] : type === 'object' ? {} : null;
      } catch {
        return type === 'any' ? text : type === 'array' ? [] : null;
      }
  }
}

export const loopNode: Builtin<'loop'> = async (context) => {
  const { node } = context;
  const { data } = node;
  const values: Record<string, unknown> = {};
  for (const variable of data.variables)
    values[variable.name] = initialValue(variable.type, context.render(variable.initial));
  let rounds = 0;
  while (rounds < data.max_count) {
    const frame = childFrame(context.frame, node.id, rounds, values);
    rounds++;
    const failure = await context.runBody(frame, context.signal);
    if (context.signal.aborted) throw context.signal.reason;
    if (failure) throw new NodeFailure(failure.error.code, failure.error.params, failure.error.detail);
    const read = (selector: string[]) => context.readIn(frame, selector);
    if (groupHolds(data.break_when, read, (text) => renderReferences(text, read))) break;
  }
  return { outputs: { ...values }, inputs: { rounds } };
};
