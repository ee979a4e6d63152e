import type { WorkflowNodeData } from '@athena/contract';
import type { NodeExecutor } from '@athena/workflow-engine';
import { jsonObjectIn } from './json-reply.ts';
import { callModel, type ModelDeps } from './model-call.ts';

type Parameter = WorkflowNodeData<'extractor'>['parameters'][number];

const JSON_TYPES: Record<Parameter['type'], object> = {
  string: { type: 'string' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  'array[string]': { type: 'array', items: { type: 'string' } },
  'array[number]': { type: 'array', items: { type: 'number' } },
  'array[object]': { type: 'array', items: { type: 'object' } },
};

/** The JSON schema the model is asked to fill, built from the node's parameters. */
export function schemaOf(parameters: Parameter[]) {
  return {
    type: 'object',
    properties: Object.fromEntries(
      parameters.map((p) => [
        p.name,
        { ...JSON_TYPES[p.type], ...(p.description ? { description: p.description } : {}) },
      ]),
    ),
    required: parameters.filter((p) => p.required).map((p) => p.name),
  };
}

/** A value as the parameter's type, or undefined when it cannot be one (a number written "3" is). */
function coerce(value: unknown, type: Parameter['type']): unknown {
  if (value === null || value === undefined) return undefined;
  switch (type) {
    case 'string':
      return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
    case 'number': {
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      return typeof number === 'number' && Number.isFinite(number) ? number : undefined;
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      return value === 'true' ? true : value === 'false' ? false : undefined;
    case 'array[string]':
      return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
    case 'array[number]':
      return Array.isArray(value) && value.every((item) => typeof item === 'number') ? value : undefined;
    case 'array[object]':
      return Array.isArray(value) && value.every((item) => item && typeof item === 'object') ? value : undefined;
  }
}

/** What the model's JSON gives for each parameter, and why the extraction failed, if it did. */
export function readParameters(reply: string, parameters: Parameter[]) {
  const json = jsonObjectIn(reply);
  const values: Record<string, unknown> = {};
  if (!json) {
    for (const p of parameters) values[p.name] = null;
    return { values, reason: 'the model did not answer with a JSON object' };
  }
  const missing: string[] = [];
  for (const p of parameters) {
    const value = coerce(json[p.name], p.type);
    values[p.name] = value ?? null;
    if (value === undefined && p.required) missing.push(p.name);
  }
  return { values, reason: missing.length > 0 ? `missing or not of its type: ${missing.join(', ')}` : null };
}

const asText = (value: unknown) => (typeof value === 'string' ? value : value == null ? '' : JSON.stringify(value));

/**
 * A parameter extractor: the model fills a JSON object whose schema comes from the parameters.
 * A failed extraction does not fail the node: `__is_success` is 0 and `__reason` says why, so the
 * workflow can branch on it (Dify's outputs, which imported workflows read).
 */
export function extractorExecutor(deps: ModelDeps): NodeExecutor<'extractor'> {
  return async (ctx) => {
    const { data } = ctx.node;
    const query = asText(ctx.read(data.query));
    const instruction = ctx.render(data.instruction);
    const schema = schemaOf(data.parameters);
    const system = [
      'Extract the parameters described by this JSON schema from the user input:',
      JSON.stringify(schema),
      instruction && `Extra instructions: ${instruction}`,
      'Answer with one JSON object only. Use null for a parameter the input does not give.',
    ]
      .filter(Boolean)
      .join('\n');
    const reply = await callModel({
      deps,
      choice: data,
      nodeTitle: ctx.node.title || ctx.node.id,
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: query || ' ' },
      ],
      signal: ctx.signal,
    });
    const { values, reason } = readParameters(reply.text, data.parameters);
    return {
      outputs: { ...values, __is_success: reason ? 0 : 1, __reason: reason },
      inputs: { query, instruction, reply: reply.text, model: reply.model },
      tokens: reply.tokens,
    };
  };
}
