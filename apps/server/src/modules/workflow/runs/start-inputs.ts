import type { WorkflowGraph } from '@athena/contract';
import { AppError } from '../../../platform/http/app-error.ts';

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/**
 * The start node's inputs as the run receives them, refused before a run starts (the caller
 * still gets a JSON answer): a required one missing, a number that is not one, a choice not
 * offered, a text past its length. Names the start node does not declare are dropped.
 */
export function checkStartInputs(graph: WorkflowGraph, given: Record<string, unknown>): Record<string, unknown> {
  const start = graph.nodes.find((node) => node.type === 'start');
  if (!start) return {};
  const inputs: Record<string, unknown> = {};
  for (const input of start.data.inputs) {
    const shown = input.label || input.name;
    const value = Object.hasOwn(given, input.name) ? given[input.name] : undefined;
    if (isEmpty(value)) {
      if (input.required) throw new AppError('WORKFLOW_INPUT_REQUIRED', { name: shown });
      inputs[input.name] = input.type === 'number' || input.type === 'json' ? null : '';
      continue;
    }
    const invalid = (detail: string) => new AppError('WORKFLOW_INPUT_INVALID', { name: shown, detail });
    switch (input.type) {
      case 'number': {
        const number = typeof value === 'string' ? Number(value) : value;
        if (typeof number !== 'number' || !Number.isFinite(number)) throw invalid('not a number');
        inputs[input.name] = number;
        break;
      }
      case 'select':
        if (typeof value !== 'string' || !input.options.includes(value)) throw invalid('not one of the options');
        inputs[input.name] = value;
        break;
      case 'text':
      case 'paragraph':
        if (typeof value !== 'string') throw invalid('not text');
        if (input.max_length !== null && [...value].length > input.max_length) {
          throw invalid(`longer than ${input.max_length} characters`);
        }
        inputs[input.name] = value;
        break;
      default:
        inputs[input.name] = value;
    }
  }
  return inputs;
}
