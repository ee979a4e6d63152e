import type { StartInput } from '@athena/contract';

/** Why a value in the test-run form is refused; `workflowEditor.run.invalid.<reason>` says it. */
export type InputRefusal = 'required' | 'number' | 'json' | 'option' | 'tooLong';

export interface ReadInputs {
  /** The values as the run takes them: numbers as numbers, JSON parsed. */
  values: Record<string, unknown>;
  refusals: Record<string, InputRefusal>;
}

const blank = (value: string | undefined) => value === undefined || value.trim() === '';

/**
 * The form's texts as the start node's inputs, checked the way the server checks them (a required
 * one missing, a number that is not one, a choice not offered, a text past its length), so the
 * person sees each problem beside its field instead of one refusal after pressing Run. JSON
 * inputs must parse. A file input is a text for now (a file's address or id), since the test run
 * has no upload of its own yet.
 */
export function readInputs(inputs: readonly StartInput[], texts: Readonly<Record<string, string>>): ReadInputs {
  const values: Record<string, unknown> = {};
  const refusals: Record<string, InputRefusal> = {};
  for (const input of inputs) {
    const text = texts[input.name];
    if (blank(text) || text === undefined) {
      if (input.required) refusals[input.name] = 'required';
      continue;
    }
    switch (input.type) {
      case 'number': {
        const number = Number(text.trim());
        if (Number.isFinite(number)) values[input.name] = number;
        else refusals[input.name] = 'number';
        break;
      }
      case 'json':
        try {
          values[input.name] = JSON.parse(text);
        } catch {
          refusals[input.name] = 'json';
        }
        break;
      case 'select':
        if (input.options.includes(text)) values[input.name] = text;
        else refusals[input.name] = 'option';
        break;
      default:
        if (input.max_length !== null && [...text].length > input.max_length) refusals[input.name] = 'tooLong';
        else values[input.name] = text;
    }
  }
  return { values, refusals };
}
