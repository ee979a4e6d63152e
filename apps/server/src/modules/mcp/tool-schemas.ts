import type { McpToolKind, StartInput, WorkflowGraph } from '@athena/contract';
import { MCP_TOOL_NAME } from '@athena/contract';
import { z } from 'zod';

/** A JSON Schema object as MCP's `inputSchema` carries it. */
export type InputSchema = { type: 'object'; properties: Record<string, object>; required?: string[] } & Record<
  string,
  unknown
>;

const QUESTION_CHARS = 4_000;

/** What a knowledge tool takes: the query, and optionally how many segments. */
export const knowledgeArguments = z.strictObject({
  query: z.string().trim().min(1).max(QUESTION_CHARS),
  top_k: z.number().int().min(1).max(20).optional(),
});

/** What an agent tool takes: one question. */
export const agentArguments = z.strictObject({ question: z.string().trim().min(1).max(QUESTION_CHARS) });

const KNOWLEDGE_SCHEMA: InputSchema = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1, maxLength: QUESTION_CHARS, description: 'What to look for.' },
    top_k: {
      type: 'integer',
      minimum: 1,
      maximum: 20,
      description: 'How many segments to return (default: the base setting).',
    },
  },
  required: ['query'],
  additionalProperties: false,
};

const AGENT_SCHEMA: InputSchema = {
  type: 'object',
  properties: {
    question: { type: 'string', minLength: 1, maxLength: QUESTION_CHARS, description: 'The question for the agent.' },
  },
  required: ['question'],
  additionalProperties: false,
};

function startInputSchema(input: StartInput): object {
  const description = input.label ? { description: input.label } : {};
  switch (input.type) {
    case 'number':
      return { type: 'number', ...description };
    case 'select':
      return { type: 'string', enum: input.options, ...description };
    case 'text':
    case 'paragraph':
      return { type: 'string', ...(input.max_length !== null ? { maxLength: input.max_length } : {}), ...description };
    case 'file':
      return { type: 'string', description: `${input.label || input.name} (a file URL)` };
    default:
      return description;
  }
}

/** The input schema of a workflow tool: its effective version's start node inputs. */
export function workflowSchema(graph: WorkflowGraph | null | undefined): InputSchema {
  const start = graph?.nodes.find((node) => node.type === 'start');
  const inputs = start?.type === 'start' ? start.data.inputs : [];
  const properties = Object.fromEntries(inputs.map((input) => [input.name, startInputSchema(input)]));
  const required = inputs.filter((input) => input.required).map((input) => input.name);
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

export function inputSchemaOf(kind: McpToolKind, graph?: WorkflowGraph | null): InputSchema {
  if (kind === 'knowledge') return KNOWLEDGE_SCHEMA;
  if (kind === 'agent') return AGENT_SCHEMA;
  return workflowSchema(graph);
}

/**
 * A default tool name from the target's name: MCP names allow only ASCII letters, digits, `_` and
 * `-`, so a Chinese name becomes `<kind>_<first 8 of the id>`.
 */
export function suggestedName(kind: McpToolKind, name: string, id: string) {
  const ascii = name
    .normalize('NFKD')
    .replace(/[^a-zA-Z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40);
  const base = ascii.length >= 3 ? `${kind}_${ascii}` : `${kind}_${id.replace(/-/g, '').slice(0, 8)}`;
  return MCP_TOOL_NAME.test(base) ? base : `${kind}_${id.replace(/-/g, '').slice(0, 8)}`;
}

/** The first problem of a zod failure as one line ("query: too short"). */
export function firstIssue(error: z.ZodError) {
  const issue = error.issues[0];
  const field = issue?.path.map(String).join('.') || 'arguments';
  return `${field}: ${issue?.message ?? 'invalid'}`;
}
