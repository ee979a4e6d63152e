import {
  type ErrorHandling,
  type Selector,
  VALUE_TYPES,
  type ValueType,
  WORKFLOW_LIMITS,
  type WorkflowNodeData,
  type WorkflowNodeType,
} from '@athena/contract';
import type { Conversion } from './references.ts';
import { bool, clamp, cut, list, num, type Rec, rec, str } from './values.ts';

/** A team's model key as the import sees it: the models it serves and the vendor they come from. */
export interface ModelKeyChoice {
  id: string;
  name: string;
  /** The vendor (openai, deepseek…) when the caller knows it; empty otherwise. */
  provider: string;
  models: string[];
}

export interface DifyConvertContext {
  modelKeys: ModelKeyChoice[];
}

/** The node being mapped: Dify's id, ours, and the title notes name it by. */
export interface NodeInfo {
  difyId: string;
  id: string;
  label: string;
}

export type MappedNode = { [T in WorkflowNodeType]: { type: T; data: WorkflowNodeData<T> } }[WorkflowNodeType];

/**
 * Stands where Dify's file names no value for a field we require. It points nowhere, so the
 * editor's validation shows the node as unfinished instead of it quietly reading something else.
 */
export const UNSET_SELECTOR: Selector = ['sys', 'unset'];

export function requiredSelector(raw: unknown, c: Conversion, node: NodeInfo, field: string): Selector {
  const selector = c.selector(raw);
  if (selector) return selector;
  c.note('WORKFLOW_NODE_INCOMPLETE', { node: node.label, field }, node.id);
  return UNSET_SELECTOR;
}

/** Dify's `variables: [{variable, value_selector}]`: the names code and templates read. */
export function boundVariables(raw: unknown, c: Conversion) {
  const out: Array<{ name: string; selector: Selector }> = [];
  for (const item of list(raw)) {
    const name = cut(str(rec(item).variable), 64);
    const selector = c.selector(rec(item).value_selector);
    if (name && selector) out.push({ name, selector });
  }
  return out.slice(0, 50);
}

/** Dify's value types (`array[string]`, `array[file]`…) in ours. */
export function valueType(raw: unknown): ValueType {
  const type = str(raw).toLowerCase();
  if (type.startsWith('array')) return 'array';
  if (type === 'integer' || type === 'float') return 'number';
  return (VALUE_TYPES as readonly string[]).includes(type) ? (type as ValueType) : 'any';
}

const ON_ERROR: Record<string, ErrorHandling['on_error']> = {
  'fail-branch': 'fail_branch',
  'default-value': 'default',
};

/** Dify's error strategy, default values and retries as our node's error handling. */
export function errorHandling(data: Rec, c: Conversion, node: NodeInfo): ErrorHandling {
  const retry = rec(data.retry_config);
  const retrying = bool(retry.retry_enabled);
  const defaults: Record<string, unknown> = {};
  for (const item of list(data.default_value)) {
    const key = str(rec(item).key);
    if (key && key !== '__proto__') defaults[key] = rec(item).value;
  }
  return {
    timeout_ms: null,
    retry: {
      max: retrying ? adjusted(num(retry.max_retries) ?? 0, 0, WORKFLOW_LIMITS.maxRetries, c, node, 'max_retries') : 0,
      interval_ms: retrying
        ? adjusted(num(retry.retry_interval) ?? 1_000, 0, WORKFLOW_LIMITS.maxRetryIntervalMs, c, node, 'retry_interval')
        : 1_000,
    },
    on_error: ON_ERROR[str(data.error_strategy)] ?? 'abort',
    default_outputs: defaults,
  };
}

/** A whole number within our bounds; a note when Dify's value had to move. */
export function adjusted(value: number, min: number, max: number, c: Conversion, node: NodeInfo, setting: string) {
  const bounded = clamp(Math.round(value), min, max);
  if (bounded !== value)
    c.note('WORKFLOW_IMPORT_VALUE_ADJUSTED', { node: node.label, setting, from: value, to: bounded }, node.id);
  return bounded;
}

/** Dify's provider ids look like `openai` or, from plugins, `langgenius/openai/openai`. */
const vendorOf = (provider: string) => (provider.split('/').pop() ?? '').trim().toLowerCase();

/**
 * Dify's model setting as one of the team's keys: one of the same vendor serving a model of that
 * name, else the only key serving a model of that name. Otherwise the node keeps no key (the
 * space's default applies) and a note asks the person to choose.
 */
export function modelChoice(raw: unknown, c: Conversion, node: NodeInfo, context: DifyConvertContext) {
  const model = rec(raw);
  const params = rec(model.completion_params);
  const name = str(model.name).trim();
  const vendor = vendorOf(str(model.provider));
  const serving = context.modelKeys.filter((key) =>
    key.models.some((served) => served.toLowerCase() === name.toLowerCase()),
  );
  const key =
    (name && serving.find((candidate) => vendor !== '' && vendorOf(candidate.provider) === vendor)) ||
    (name && serving.length === 1 ? serving[0] : undefined);
  if (!key && name) {
    const shown = vendor ? `${vendor}/${name}` : name;
    c.note('WORKFLOW_IMPORT_MODEL_UNMATCHED', { node: node.label, model: cut(shown, 200) }, node.id);
  }
  const temperature = num(params.temperature);
  const maxTokens = num(params.max_tokens);
  return {
    model_key_id: key ? cut(key.id, 64) : null,
    model: key ? cut(key.models.find((served) => served.toLowerCase() === name.toLowerCase()) ?? name, 200) : '',
    temperature: temperature === null ? 0.7 : clamp(temperature, 0, 2),
    max_tokens: maxTokens === null || maxTokens < 1 ? null : adjusted(maxTokens, 1, 32_000, c, node, 'max_tokens'),
  };
}

/** Notes for Dify settings that change what a node does and that we do not have. */
export function dropped(c: Conversion, node: NodeInfo, settings: Array<[boolean, string]>) {
  for (const [present, setting] of settings) {
    if (present) c.note('WORKFLOW_IMPORT_SETTING_DROPPED', { node: node.label, setting }, node.id);
  }
}
