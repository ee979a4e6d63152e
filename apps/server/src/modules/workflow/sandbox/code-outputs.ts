import type { ValueType } from '@athena/contract';
import { SandboxFailure } from './sandbox.ts';

function matches(value: unknown, type: ValueType): boolean {
  switch (type) {
    case 'string':
    case 'number':
    case 'boolean':
      return typeof value === type;
    case 'array':
      return Array.isArray(value);
    case 'object':
    case 'file':
      return typeof value === 'object' && !Array.isArray(value);
    default:
      return true;
  }
}

const describe = (value: unknown) => (Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value);

/**
 * What `main` returned, checked against the node's declared outputs: each must be there, with its
 * type (null stands for "no value" in any type). With no outputs declared, every key is passed on.
 */
export function checkOutputs(
  value: unknown,
  declared: ReadonlyArray<{ name: string; type: ValueType }>,
): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new SandboxFailure('output', `main must return an object, not ${describe(value)}`);
  const result = value as Record<string, unknown>;
  if (declared.length === 0) return result;
  const outputs: Record<string, unknown> = {};
  for (const { name, type } of declared) {
    if (!Object.hasOwn(result, name)) throw new SandboxFailure('output', `the output "${name}" is missing`);
    const item = result[name];
    if (item !== null && !matches(item, type))
      throw new SandboxFailure('output', `the output "${name}" should be ${type}, not ${describe(item)}`);
    outputs[name] = item;
  }
  return outputs;
}
