import type { StartInput } from '@athena/contract';
import { NodeFailure } from '../types.ts';
import type { Builtin } from './context.ts';

// The start node checks and types the run's inputs: what a form or API caller sent becomes the
// values the declared inputs promise (a number is a number, JSON is parsed).

function invalid(input: StartInput, detail: string): NodeFailure {
  return new NodeFailure('WORKFLOW_INPUT_INVALID', { name: input.label || input.name, detail }, detail);
}

function isMissing(raw: unknown): boolean {
  return raw === undefined || raw === null || raw === '' || (Array.isArray(raw) && raw.length === 0);
}

export function startValue(input: StartInput, raw: unknown): unknown {
  if (isMissing(raw)) {
    if (input.required) throw new NodeFailure('WORKFLOW_INPUT_REQUIRED', { name: input.label || input.name });
    return input.type === 'text' || input.type === 'paragraph' || input.type === 'select' ? '' : null;
  }
  switch (input.type) {
    case 'text':
    case 'paragraph':
    case 'select': {
      if (typeof raw === 'object') throw invalid(input, 'text expected');
      const text = String(raw);
      if (input.max_length !== null && text.length > input.max_length) {
        throw invalid(input, `at most ${input.max_length} characters`);
      }
      if (input.type === 'select' && input.options.length > 0 && !input.options.includes(text)) {
        throw invalid(input, 'not one of the options');
      }
      return text;
    }
    case 'number': {
      const value = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() ? Number(raw) : Number.NaN;
      if (!Number.isFinite(value)) throw invalid(input, 'not a number');
      return value;
    }
    case 'json':
      if (typeof raw !== 'string') return raw;
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        throw invalid(input, 'not valid JSON');
      }
    case 'file':
      return raw;
  }
}

export const startNode: Builtin<'start'> = ({ node, run }) => {
  const outputs: Record<string, unknown> = {};
  for (const input of node.data.inputs) outputs[input.name] = startValue(input, run.inputs[input.name]);
  return { outputs, inputs: { ...run.inputs } };
};
