import { type WorkflowNode, type WorkflowNodeData, type WorkflowNodeType, workflowNodeSchema } from '@athena/contract';

/** How the canvas draws a kind: which handles it has and whether it holds other nodes. */
export type NodeFamily = 'entry' | 'exit' | 'step' | 'branch' | 'container';

interface KindInfo {
  family: NodeFamily;
  /** Header colour on the canvas and in the palette. */
  color: string;
  /** Offered in the palette (an unsupported node only ever arrives by import). */
  palette: boolean;
}

export const KIND_INFO: Record<WorkflowNodeType, KindInfo> = {
  start: { family: 'entry', color: '#1677ff', palette: true },
  end: { family: 'exit', color: '#fa541c', palette: true },
  answer: { family: 'step', color: '#fa8c16', palette: true },
  llm: { family: 'step', color: '#722ed1', palette: true },
  knowledge: { family: 'step', color: '#13c2c2', palette: true },
  classifier: { family: 'branch', color: '#52c41a', palette: true },
  extractor: { family: 'step', color: '#2f54eb', palette: true },
  if_else: { family: 'branch', color: '#08979c', palette: true },
  template: { family: 'step', color: '#597ef7', palette: true },
  code: { family: 'step', color: '#262626', palette: true },
  http: { family: 'step', color: '#eb2f96', palette: true },
  aggregator: { family: 'step', color: '#a0d911', palette: true },
  assigner: { family: 'step', color: '#faad14', palette: true },
  list_operator: { family: 'step', color: '#389e0d', palette: true },
  iteration: { family: 'container', color: '#1d39c4', palette: true },
  loop: { family: 'container', color: '#9254de', palette: true },
  agent: { family: 'step', color: '#cf1322', palette: true },
  sub_workflow: { family: 'step', color: '#0958d9', palette: true },
  mcp_tool: { family: 'step', color: '#531dab', palette: true },
  unsupported: { family: 'step', color: '#8c8c8c', palette: false },
};

export const PALETTE_KINDS = (Object.keys(KIND_INFO) as WorkflowNodeType[]).filter((type) => KIND_INFO[type].palette);

/** Palette groups, in the order a person builds a flow. */
export const PALETTE_GROUPS: ReadonlyArray<{
  key: 'basic' | 'logic' | 'transform' | 'tools';
  kinds: WorkflowNodeType[];
}> = [
  { key: 'basic', kinds: ['start', 'end', 'answer', 'llm', 'knowledge', 'agent'] },
  { key: 'logic', kinds: ['if_else', 'classifier', 'iteration', 'loop', 'aggregator', 'assigner'] },
  { key: 'transform', kinds: ['extractor', 'template', 'code', 'list_operator'] },
  { key: 'tools', kinds: ['http', 'sub_workflow', 'mcp_tool'] },
];

const query = ['sys', 'query'];
const model = { model_key_id: null, model: '', temperature: 0.7, max_tokens: null };

/**
 * Data a new node starts with. Each passes the contract's schema; the selectors point at the
 * run's query (or files) so the node is valid to save, and validation says what is still to do.
 */
export const DEFAULT_DATA: { [T in Exclude<WorkflowNodeType, 'unsupported'>]: () => WorkflowNodeData<T> } = {
  start: () => ({ inputs: [] }),
  end: () => ({ outputs: [] }),
  answer: () => ({ text: '' }),
  llm: () => ({ ...model, system_prompt: '', user_prompt: '{{#sys.query#}}', json_schema: null }),
  knowledge: () => ({ query: [...query], knowledge_ids: [], top_k: 5 }),
  classifier: () => ({
    ...model,
    query: [...query],
    classes: [
      { id: 'class_1', name: '' },
      { id: 'class_2', name: '' },
    ],
    instruction: '',
  }),
  extractor: () => ({ ...model, query: [...query], parameters: [], instruction: '' }),
  if_else: () => ({ cases: [{ id: 'case_1', logical_operator: 'and', conditions: [] }] }),
  template: () => ({ variables: [], template: '' }),
  code: () => ({
    language: 'javascript',
    variables: [],
    code: 'function main(inputs) {\n  return { result: "" };\n}\n',
    outputs: [{ name: 'result', type: 'string' }],
  }),
  http: () => ({
    method: 'GET',
    url: '',
    headers: [],
    params: [],
    body: { type: 'none', data: '' },
    auth: { type: 'none' },
    timeout_ms: 30_000,
  }),
  aggregator: () => ({ selectors: [[...query]], output_type: 'string' }),
  assigner: () => ({ items: [{ target: [...query], operation: 'set', source: null, constant: '' }] }),
  list_operator: () => ({ list: ['sys', 'files'], filter: null, sort: null, limit: null }),
  iteration: () => ({
    list: ['sys', 'files'],
    output: [...query],
    parallel: false,
    parallel_limit: 4,
    error_mode: 'terminate',
  }),
  loop: () => ({ variables: [], break_when: { logical_operator: 'and', conditions: [] }, max_count: 10 }),
  agent: () => ({ agent_id: '', query: '{{#sys.query#}}' }),
  sub_workflow: () => ({ workflow_id: '', inputs: [] }),
  mcp_tool: () => ({ server_id: '', tool: '', arguments: [], timeout_ms: 60_000 }),
};

export type PaletteKind = keyof typeof DEFAULT_DATA;

/** A fresh id for a node of a kind, unused in `taken`; safe inside a `{{#id.output#}}` reference. */
export function newNodeId(type: WorkflowNodeType, taken: ReadonlySet<string>): string {
  for (;;) {
    const id = `${type}_${Math.random().toString(36).slice(2, 8)}`;
    if (!taken.has(id)) return id;
  }
}

/** A new node of a kind, parsed by the contract so every default is filled in. */
export function createNode(
  type: PaletteKind,
  options: { id: string; title: string; position: { x: number; y: number }; parentId?: string | null },
): WorkflowNode {
  return workflowNodeSchema.parse({
    id: options.id,
    type,
    title: options.title,
    position: options.position,
    parent_id: options.parentId ?? null,
    data: DEFAULT_DATA[type](),
  });
}

/**
 * The outgoing handles of a node, in drawing order. Containers also have `body`, drawn inside
 * them, from which their first body node hangs.
 */
export function sourceHandlesOf(node: WorkflowNode): string[] {
  const handles: string[] = [];
  switch (node.type) {
    case 'end':
      break;
    case 'if_else':
      handles.push(...node.data.cases.map((item) => item.id), 'else');
      break;
    case 'classifier':
      handles.push(...node.data.classes.map((item) => item.id));
      break;
    default:
      handles.push('out');
  }
  if (node.type !== 'end' && node.errors.on_error === 'fail_branch') handles.push('fail');
  return handles;
}

export const isContainer = (type: WorkflowNodeType) => KIND_INFO[type].family === 'container';
