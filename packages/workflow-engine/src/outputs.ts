import type { StartInput, WorkflowNode } from '@athena/contract';

export interface NodeOutput {
  name: string;
  type: string;
}

const START_INPUT_VALUE: Record<StartInput['type'], string> = {
  text: 'string',
  paragraph: 'string',
  number: 'number',
  select: 'string',
  file: 'file',
  json: 'object',
};

/** The system variables every node may read as `['sys', name]`. */
export const SYSTEM_OUTPUTS: readonly NodeOutput[] = [
  { name: 'query', type: 'string' },
  { name: 'files', type: 'array[file]' },
  { name: 'user_id', type: 'string' },
  { name: 'run_id', type: 'string' },
  { name: 'workflow_id', type: 'string' },
  { name: 'conversation_id', type: 'string' },
];

function ownOutputs(node: WorkflowNode): NodeOutput[] {
  switch (node.type) {
    case 'start':
      return node.data.inputs.map((input) => ({ name: input.name, type: START_INPUT_VALUE[input.type] }));
    case 'llm':
      return [
        { name: 'text', type: 'string' },
        ...(node.data.json_schema ? [{ name: 'structured', type: 'object' }] : []),
        { name: 'usage', type: 'object' },
      ];
    case 'knowledge':
      return [{ name: 'result', type: 'array[object]' }];
    case 'classifier':
      return [{ name: 'class_name', type: 'string' }];
    case 'extractor':
      return [
        ...node.data.parameters.map((parameter) => ({ name: parameter.name, type: parameter.type })),
        // 1 or 0, as Dify has it, so that imported conditions on it keep working.
        { name: '__is_success', type: 'number' },
        { name: '__reason', type: 'string' },
      ];
    case 'template':
      return [{ name: 'output', type: 'string' }];
    case 'code':
      return node.data.outputs.map((output) => ({ name: output.name, type: output.type }));
    case 'http':
      return [
        { name: 'status_code', type: 'number' },
        { name: 'body', type: 'string' },
        { name: 'headers', type: 'object' },
      ];
    case 'aggregator':
      return [{ name: 'output', type: node.data.output_type }];
    case 'list_operator':
      return [
        { name: 'result', type: 'array' },
        { name: 'first', type: 'any' },
        { name: 'last', type: 'any' },
      ];
    case 'iteration':
      return [{ name: 'output', type: 'array' }];
    case 'loop':
      return node.data.variables.map((variable) => ({ name: variable.name, type: variable.type }));
    case 'agent':
      return [{ name: 'text', type: 'string' }];
    case 'sub_workflow':
      return [
        { name: 'outputs', type: 'object' },
        { name: 'answer', type: 'string' },
      ];
    case 'mcp_tool':
      // The tool's text parts, and its structured content when it gives one (else an empty object).
      return [
        { name: 'text', type: 'string' },
        { name: 'structured', type: 'object' },
      ];
    case 'answer':
      return [{ name: 'answer', type: 'string' }];
    case 'end':
    case 'if_else':
    case 'assigner':
    case 'unsupported':
      return [];
  }
}

/**
 * What a node offers the nodes after it. A node whose errors take the fail branch also offers
 * `error_message`, which the nodes on that branch read to report or recover.
 */
export function outputsOf(node: WorkflowNode): NodeOutput[] {
  const outputs = ownOutputs(node);
  if (node.errors.on_error === 'fail_branch') outputs.push({ name: 'error_message', type: 'string' });
  return outputs;
}
