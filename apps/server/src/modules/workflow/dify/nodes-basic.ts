import type { StartInput } from '@athena/contract';
import { adjusted, boundVariables, type MappedNode, type NodeInfo, requiredSelector, valueType } from './node-parts.ts';
import type { Conversion } from './references.ts';
import { bool, cut, list, num, type Rec, rec, str } from './values.ts';

const INPUT_TYPES: Record<string, StartInput['type']> = {
  'text-input': 'text',
  paragraph: 'paragraph',
  number: 'number',
  select: 'select',
  file: 'file',
  json_object: 'json',
  json: 'json',
};

const NAME_RULE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** An input name our rule accepts; Dify's older files allow names ours does not. */
function inputName(raw: string, index: number, taken: Set<string>): string {
  let name = NAME_RULE.test(raw) ? raw : raw.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^(?=\d)/, '_');
  if (!NAME_RULE.test(name)) name = `input_${index + 1}`;
  name = cut(name, 60);
  for (let n = 2; taken.has(name); n++) name = `${cut(name, 56)}_${n}`;
  taken.add(name);
  return name;
}

/**
 * Start names its own ids on the first pass, because later nodes read its inputs by name and a
 * renamed input must be renamed in their selectors too.
 */
export function startNode(data: Rec, c: Conversion, node: NodeInfo): MappedNode {
  const taken = new Set<string>();
  const inputs: StartInput[] = list(data.variables)
    .slice(0, 50)
    .map((raw, index) => {
      const variable = rec(raw);
      const difyName = str(variable.variable);
      const name = inputName(difyName, index, taken);
      c.renameOutput(node.difyId, difyName, name);
      const difyType = str(variable.type);
      const type = INPUT_TYPES[difyType] ?? 'text';
      if (!INPUT_TYPES[difyType])
        c.note(
          'WORKFLOW_IMPORT_VALUE_ADJUSTED',
          { node: node.label, setting: `${name} type`, from: difyType || '-', to: type },
          node.id,
        );
      const maxLength = num(variable.max_length);
      return {
        name,
        label: cut(str(variable.label), 100),
        type,
        required: bool(variable.required, true),
        options: list(variable.options)
          .slice(0, 100)
          .map((option) => cut(str(option), 200)),
        max_length: maxLength !== null && maxLength >= 1 ? Math.min(Math.round(maxLength), 100_000) : null,
      };
    });
  return { type: 'start', data: { inputs } };
}

export function endNode(data: Rec, c: Conversion, node: NodeInfo): MappedNode {
  const outputs = [];
  for (const [index, raw] of list(data.outputs).entries()) {
    const name = cut(str(rec(raw).variable), 64) || `output_${index + 1}`;
    const selector = c.selector(rec(raw).value_selector);
    if (selector) outputs.push({ name, selector });
    else c.note('WORKFLOW_NODE_INCOMPLETE', { node: node.label, field: name }, node.id);
  }
  return { type: 'end', data: { outputs: outputs.slice(0, 50) } };
}

export function answerNode(data: Rec, c: Conversion): MappedNode {
  return { type: 'answer', data: { text: c.text(data.answer) } };
}

/** Dify's datasets are not ours, so the node keeps its query and asks for knowledge bases. */
export function knowledgeNode(data: Rec, c: Conversion, node: NodeInfo): MappedNode {
  const datasets = list(data.dataset_ids).length;
  if (datasets > 0) c.note('WORKFLOW_IMPORT_KNOWLEDGE_UNMAPPED', { node: node.label, count: datasets }, node.id);
  const topK = num(rec(data.multiple_retrieval_config).top_k);
  return {
    type: 'knowledge',
    data: {
      query: requiredSelector(data.query_variable_selector, c, node, 'query'),
      knowledge_ids: [],
      top_k: topK === null ? 5 : adjusted(topK, 1, 20, c, node, 'top_k'),
    },
  };
}

/** Jinja2 as Dify wrote it: our template node runs Jinja-compatible templates. */
export function templateNode(data: Rec, c: Conversion): MappedNode {
  return {
    type: 'template',
    data: { variables: boundVariables(data.variables, c), template: cut(str(data.template), 100_000) },
  };
}

/** Dify's `def main(a, b) -> dict` / `function main({a, b})` is our signature too. */
export function codeNode(data: Rec, c: Conversion): MappedNode | null {
  const language = str(data.code_language);
  if (language !== 'python3' && language !== 'javascript') return null;
  const outputs = Object.entries(rec(data.outputs))
    .filter(([name]) => name !== '')
    .slice(0, 50)
    .map(([name, raw]) => ({ name: cut(name, 64), type: valueType(rec(raw).type) }));
  return {
    type: 'code',
    data: { language, variables: boundVariables(data.variables, c), code: cut(str(data.code), 100_000), outputs },
  };
}
