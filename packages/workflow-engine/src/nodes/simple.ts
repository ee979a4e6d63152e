import { groupHolds } from '../conditions.ts';
import type { Builtin } from './context.ts';

// The built-in nodes that only read and route: end, answer, if/else and the variable aggregator.

export const endNode: Builtin<'end'> = ({ node, read, frame, run }) => {
  const outputs: Record<string, unknown> = {};
  for (const output of node.data.outputs) outputs[output.name] = read(output.selector);
  if (frame.path.length === 0) run.endOutputs.push(outputs);
  return { outputs, inputs: {} };
};

export const answerNode: Builtin<'answer'> = ({ node, render, emitText, run }) => {
  const text = render(node.data.text);
  if (text) emitText(text);
  run.answers.push(text);
  return { outputs: { answer: text }, inputs: {} };
};

export const ifElseNode: Builtin<'if_else'> = ({ node, read, render }) => {
  const chosen = node.data.cases.find((branch) => groupHolds(branch, read, render));
  const branch = chosen?.id ?? 'else';
  return { outputs: {}, inputs: { case: branch }, branch };
};

export const aggregatorNode: Builtin<'aggregator'> = ({ node, read }) => {
  for (const selector of node.data.selectors) {
    const value = read(selector);
    if (value !== undefined && value !== null)
      return { outputs: { output: value }, inputs: { from: selector.join('.') } };
  }
  return { outputs: { output: null }, inputs: {} };
};
