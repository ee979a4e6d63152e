import type { WorkflowNodeData } from '@athena/contract';
import {
  type DifyConvertContext,
  dropped,
  type MappedNode,
  modelChoice,
  type NodeInfo,
  requiredSelector,
} from './node-parts.ts';
import type { Conversion } from './references.ts';
import { bool, cut, list, type Rec, rec, str } from './values.ts';

type Parameter = WorkflowNodeData<'extractor'>['parameters'][number];

const PARAMETER_TYPES: Record<string, Parameter['type']> = {
  string: 'string',
  select: 'string',
  number: 'number',
  bool: 'boolean',
  boolean: 'boolean',
  'array[string]': 'array[string]',
  'array[number]': 'array[number]',
  'array[object]': 'array[object]',
};

/**
 * Dify's prompt messages as our system and user prompts. System messages join the system prompt;
 * user and assistant messages join the user prompt in their order (we send one of each).
 * `{{#context#}}` becomes the context variable it stood for.
 */
export function llmNode(data: Rec, c: Conversion, node: NodeInfo, context: DifyConvertContext): MappedNode {
  const contextSetting = rec(data.context);
  const contextSelector = bool(contextSetting.enabled) ? c.selector(contextSetting.variable_selector) : null;
  const fill = (text: unknown) => {
    const rewritten = c.text(text);
    return contextSelector ? rewritten.replaceAll('{{#context#}}', `{{#${contextSelector.join('.')}#}}`) : rewritten;
  };
  const messages = Array.isArray(data.prompt_template) ? data.prompt_template : [data.prompt_template];
  const system: string[] = [];
  const user: string[] = [];
  let jinja = false;
  let assistant = false;
  for (const raw of messages) {
    const message = rec(raw);
    if (str(message.edition_type) === 'jinja2') jinja = true;
    const text = fill(message.text);
    if (!text) continue;
    if (str(message.role) === 'system') system.push(text);
    else {
      if (str(message.role) === 'assistant') assistant = true;
      user.push(text);
    }
  }
  // A chatflow LLM with memory gets the user's message appended by Dify, not written in its prompt.
  const memory = data.memory !== undefined && data.memory !== null;
  if (memory) {
    const query = fill(str(rec(data.memory).query_prompt_template) || '{{#sys.query#}}');
    if (!user.some((text) => text.includes('{{#sys.query#}}'))) user.push(query);
  }
  dropped(c, node, [
    [memory, 'memory'],
    [bool(rec(data.vision).enabled), 'vision'],
    [jinja, 'jinja2 prompt'],
    [assistant, 'assistant messages'],
  ]);
  const structured = bool(data.structured_output_enabled) ? rec(rec(data.structured_output).schema) : null;
  return {
    type: 'llm',
    data: {
      ...modelChoice(data.model, c, node, context),
      system_prompt: cut(system.join('\n\n'), 100_000),
      user_prompt: cut(user.join('\n\n'), 100_000),
      json_schema: structured && Object.keys(structured).length > 0 ? structured : null,
    },
  };
}

export function classifierNode(data: Rec, c: Conversion, node: NodeInfo, context: DifyConvertContext): MappedNode {
  const classes = list(data.classes).map((raw, index) => ({
    id: cut(str(rec(raw).id), 64) || `class_${index + 1}`,
    name: cut(str(rec(raw).name), 500),
  }));
  if (classes.length === 0) {
    c.note('WORKFLOW_NODE_INCOMPLETE', { node: node.label, field: 'classes' }, node.id);
    classes.push({ id: '1', name: '' });
  }
  if (classes.length > 20)
    c.note('WORKFLOW_IMPORT_SETTING_DROPPED', { node: node.label, setting: 'classes > 20' }, node.id);
  dropped(c, node, [[data.memory !== undefined && data.memory !== null, 'memory']]);
  return {
    type: 'classifier',
    data: {
      ...modelChoice(data.model, c, node, context),
      query: requiredSelector(data.query_variable_selector, c, node, 'query'),
      classes: classes.slice(0, 20),
      instruction: c.text(str(data.instruction) || str(data.instructions), 10_000),
    },
  };
}

export function extractorNode(data: Rec, c: Conversion, node: NodeInfo, context: DifyConvertContext): MappedNode {
  const parameters: Parameter[] = [];
  for (const raw of list(data.parameters)) {
    const parameter = rec(raw);
    const name = cut(str(parameter.name), 64);
    if (!name) continue;
    const difyType = str(parameter.type);
    const type = PARAMETER_TYPES[difyType] ?? 'string';
    if (!PARAMETER_TYPES[difyType])
      c.note(
        'WORKFLOW_IMPORT_VALUE_ADJUSTED',
        { node: node.label, setting: `${name} type`, from: difyType || '-', to: type },
        node.id,
      );
    parameters.push({
      name,
      type,
      description: cut(str(parameter.description), 1_000),
      required: bool(parameter.required),
    });
  }
  dropped(c, node, [[data.memory !== undefined && data.memory !== null, 'memory']]);
  return {
    type: 'extractor',
    data: {
      ...modelChoice(data.model, c, node, context),
      query: requiredSelector(data.query, c, node, 'query'),
      parameters: parameters.slice(0, 50),
      instruction: c.text(data.instruction, 10_000),
    },
  };
}
