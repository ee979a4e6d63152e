import { readdirSync, readFileSync } from 'node:fs';
import { type WorkflowFile, type WorkflowNode, type WorkflowNodeOf, workflowFileSchema } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { convertDifyDsl, type DifyConvertContext } from './convert.ts';

const FIXTURES = new URL('./fixtures/', import.meta.url);
const fixtureNames = readdirSync(FIXTURES).filter((name) => name.endsWith('.yml'));
const TEAM: DifyConvertContext = {
  modelKeys: [
    { id: 'key-deepseek', name: 'DeepSeek', provider: 'deepseek', models: ['deepseek-chat', 'deepseek-reasoner'] },
    { id: 'key-qwen', name: 'Qwen', provider: '', models: ['qwen-max'] },
  ],
};

const load = (name: string) => parse(readFileSync(new URL(name, FIXTURES), 'utf8'));
const convert = (name: string, context = TEAM) => convertDifyDsl(load(name), context);

function node<T extends WorkflowNode['type']>(file: WorkflowFile, id: string, type: T): WorkflowNodeOf<T> {
  const found = file.graph.nodes.find((item) => item.id === id);
  expect(found?.type).toBe(type);
  return found as WorkflowNodeOf<T>;
}
const handlesFrom = (file: WorkflowFile, id: string) =>
  file.graph.edges.filter((edge) => edge.source === id).map((edge) => [edge.source_handle, edge.target]);

/** A small DSL document in Dify's shape, for what no public file showed. */
function dsl(nodes: unknown[], edges: unknown[] = [], workflow: Record<string, unknown> = {}) {
  return {
    version: '0.3.0',
    kind: 'app',
    app: { name: 'inline', mode: 'workflow' },
    workflow: { graph: { nodes, edges }, ...workflow },
  };
}

describe('Dify fixtures', () => {
  it('keeps at least six real files, each under 100 KB', () => {
    expect(fixtureNames.length).toBeGreaterThanOrEqual(6);
    for (const name of fixtureNames) expect(readFileSync(new URL(name, FIXTURES)).length).toBeLessThan(100_000);
  });

  it.each(fixtureNames)('%s converts to a document our schema accepts, every edge between its nodes', (name) => {
    const { file } = convert(name);
    expect(workflowFileSchema.parse(file)).toEqual(file);
    const ids = new Set(file.graph.nodes.map((item) => item.id));
    expect(ids.size).toBe(file.graph.nodes.length);
    for (const edge of file.graph.edges) {
      expect(ids.has(edge.source)).toBe(true);
      expect(ids.has(edge.target)).toBe(true);
    }
    expect(file.graph.nodes.filter((item) => item.type === 'start')).toHaveLength(1);
    // Dify's conversation variables are our environment; nothing may still read `conversation`.
    expect(JSON.stringify(file.graph.nodes.filter((item) => item.type !== 'unsupported'))).not.toMatch(
      /"conversation"|\{\{#conversation\./,
    );
  });
});

describe('mappings on real files', () => {
  it('a Python code node keeps its code, inputs and typed outputs', () => {
    const { file } = convert('svcvit-json-translate.yml');
    const code = node(file, '1731659181729', 'code');
    expect(code.data.language).toBe('python3');
    expect(code.data.code).toContain('def main(json_data_string)');
    expect(code.data.variables).toEqual([{ name: 'json_data_string', selector: ['1731659178787', 'json_data'] }]);
    expect(code.data.outputs).toEqual([{ name: 'items_to_translate', type: 'array' }]);
  });

  it('a Jinja2 template is kept as written, with its variables', () => {
    const { file } = convert('svcvit-document-chat.yml');
    const template = node(file, '1720796109721', 'template');
    expect(template.data.template).toBe('属于 {{ arg1 }} 的问题\n结果：\n{{ arg2[0].content }}\n');
    expect(template.data.variables[0]).toEqual({ name: 'arg1', selector: ['1720795163496', 'class_name'] });
  });

  it("a question classifier's classes become its handles, and a matching model key is chosen", () => {
    const { file, notes } = convert('svcvit-document-chat.yml');
    const classifier = node(file, '1720795163496', 'classifier');
    expect(classifier.data.classes.map((item) => item.id)).toEqual(['1', '2', '1720796069925', '1720839653345']);
    expect(classifier.data.query).toEqual(['1720795218540', 'text']);
    expect(classifier.data).toMatchObject({ model_key_id: 'key-deepseek', model: 'deepseek-chat', temperature: 0.2 });
    expect(handlesFrom(file, '1720795163496')).toEqual([
      ['1', '1720800425522'],
      ['2', '1720800677771'],
      ['1720796069925', '1720800734485'],
      ['1720839653345', '1720839679262'],
    ]);
    expect(notes.filter((item) => item.key === 'WORKFLOW_IMPORT_MODEL_UNMATCHED')).toEqual([]);
  });

  it("an if/else's case keeps its id and conditions; Dify's false handle is our else", () => {
    const { file } = convert('svcvit-document-chat.yml');
    const ifElse = node(file, '1720795610192', 'if_else');
    expect(ifElse.data.cases).toEqual([
      {
        id: 'true',
        logical_operator: 'and',
        conditions: [{ selector: ['1720795218540', 'text'], operator: 'contains', value: '需要查询' }],
      },
    ]);
    expect(handlesFrom(file, '1720795610192').sort()).toEqual([
      ['else', '1720795972410'],
      ['true', '1720795163496'],
    ]);
  });

  it("an iteration's body hangs from it: children carry parent_id, the body starts at the `body` handle", () => {
    const { file } = convert('svcvit-json-translate.yml');
    const iteration = node(file, '1731659184426', 'iteration');
    expect(iteration.data).toMatchObject({
      list: ['1731659181729', 'items_to_translate'],
      output: ['1731659778623', 'result'],
      parallel: false,
      error_mode: 'terminate',
    });
    const children = file.graph.nodes.filter((item) => item.parent_id === '1731659184426').map((item) => item.id);
    expect(children.sort()).toEqual(['1731659360096', '1731659570395', '1731659778623']);
    expect(handlesFrom(file, '1731659184426')).toContainEqual(['body', '1731659360096']);
    // The iteration-start marker is gone; its edge left from the iteration itself.
    expect(file.graph.nodes.some((item) => item.id === '1731659184426start')).toBe(false);
  });

  it('a tool becomes a placeholder naming the tool, with a note', () => {
    const { file, notes } = convert('svcvit-json-translate.yml');
    const tool = node(file, '1731659570395', 'unsupported');
    expect(tool.data.original_type).toBe('tool');
    expect(tool.data.summary).toBe('google_translate / 翻译');
    expect(tool.data.original).toMatchObject({ tool_name: 'translate' });
    expect(tool.parent_id).toBe('1731659184426');
    expect(notes).toContainEqual({
      key: 'WORKFLOW_IMPORT_NODE_PLACEHOLDER',
      params: { node: '翻译', type: 'tool' },
      node_id: '1731659570395',
    });
  });

  it('an agent and plugin tools of a 0.3.0 chatflow become placeholders too', () => {
    const travel = convert('svcvit-travel-agent.yml').file;
    expect(travel.graph.nodes.filter((item) => item.type === 'unsupported').map((item) => item.data)).toEqual([
      expect.objectContaining({ original_type: 'agent' }),
    ]);
    const payment = convert('svcvit-payment-demo.yml').file;
    expect(payment.graph.nodes.some((item) => item.type === 'unsupported' && item.data.original_type === 'tool')).toBe(
      true,
    );
  });

  it('a model no key serves is left unset, with a note naming it', () => {
    const { file, notes } = convert('svcvit-llm2o1.yml');
    const llm = node(file, 'llm', 'llm');
    expect(llm.data.model_key_id).toBeNull();
    expect(llm.data.model).toBe('');
    expect(notes).toContainEqual({
      key: 'WORKFLOW_IMPORT_MODEL_UNMATCHED',
      params: { node: '任务拆解', model: 'openai/gpt-4o' },
      node_id: 'llm',
    });
    // The chatflow's memory appended the user's message; it is written into the prompt here.
    expect(llm.data.user_prompt).toContain('{{#sys.query#}}');
    expect(notes).toContainEqual(expect.objectContaining({ key: 'WORKFLOW_IMPORT_SETTING_DROPPED', node_id: 'llm' }));
  });

  it('a key serving the model matches by model name when the vendor is unknown', () => {
    const { file } = convert('svcvit-llm-surrounded.yml');
    const llm = node(file, '1735195760496', 'llm');
    expect(llm.data).toMatchObject({ model_key_id: 'key-qwen', model: 'qwen-max' });
  });

  it('the parameter extractor keeps its parameters, query and instruction', () => {
    const { file } = convert('svcvit-llm2o1.yml');
    const extractor = file.graph.nodes.find((item) => item.type === 'extractor') as WorkflowNodeOf<'extractor'>;
    expect(extractor.data.parameters.length).toBeGreaterThan(0);
    expect(extractor.data.query.length).toBe(2);
  });

  it('a loop keeps its variables, break condition and count; its body starts at `body`', () => {
    const { file } = convert('dify-loop-break.yml');
    const loop = node(file, '1754827949615', 'loop');
    expect(loop.data).toEqual({
      variables: [{ name: 'num', type: 'number', initial: '1' }],
      break_when: {
        logical_operator: 'and',
        conditions: [{ selector: ['1754827949615', 'num'], operator: 'ge', value: '5' }],
      },
      max_count: 10,
    });
    const assigner = node(file, '1754827988715', 'assigner');
    expect(assigner.parent_id).toBe('1754827949615');
    expect(assigner.data.items).toEqual([
      { target: ['1754827949615', 'num'], operation: 'add', source: null, constant: '1' },
    ]);
    expect(handlesFrom(file, '1754827949615').sort()).toEqual([
      ['body', '1754827988715'],
      ['out', '1754828005059'],
    ]);
  });

  it('the old assigner writes a conversation variable, which became an environment variable', () => {
    const { file, notes } = convert('svcvit-form-chat.yml');
    const assigner = node(file, '1731379076735', 'assigner');
    expect(assigner.data.items).toEqual([
      { target: ['env', 'user_token'], operation: 'set', source: ['1731378644337', 'user_token'], constant: '' },
    ]);
    expect(file.graph.environment).toEqual([
      { name: 'login', type: 'number', value: '0' },
      { name: 'user_token', type: 'string', value: '' },
    ]);
    expect(notes).toContainEqual({
      key: 'WORKFLOW_IMPORT_CONVERSATION_VARIABLE',
      params: { name: 'user_token', env: 'user_token' },
      node_id: null,
    });
  });

  it('an HTTP request keeps method, URL, headers and the list-shaped JSON body; its API key is sealed', () => {
    const { file, notes } = convert('svcvit-run-llm-code.yml');
    const http = node(file, '1733305706063', 'http');
    expect(http.data).toMatchObject({
      method: 'POST',
      url: 'http://sandbox:8194/v1/sandbox/run',
      headers: [{ key: 'X-Api-Key', value: '{{#env._1733305706063_X_API_KEY#}}' }],
      params: [],
      body: { type: 'json', data: '{"code":{{#1733309556954.code#}},"language":"python3"}' },
      auth: { type: 'none' },
      timeout_ms: 30_000,
    });
    expect(file.graph.environment).toContainEqual({
      name: '_1733305706063_X_API_KEY',
      type: 'secret',
      value: 'dify-sandbox',
    });
    expect(notes).toContainEqual({
      key: 'WORKFLOW_IMPORT_SECRET_MOVED',
      params: { node: http.title, field: 'X-Api-Key', env: '_1733305706063_X_API_KEY' },
      node_id: '1733305706063',
    });
  });

  it("knowledge retrieval keeps its query but not Dify's datasets, with a note", () => {
    const { file, notes } = convert('svcvit-document-chat.yml');
    const knowledge = node(file, '1720800425522', 'knowledge');
    expect(knowledge.data.knowledge_ids).toEqual([]);
    expect(notes).toContainEqual(
      expect.objectContaining({ key: 'WORKFLOW_IMPORT_KNOWLEDGE_UNMAPPED', node_id: '1720800425522' }),
    );
  });
});

describe('mappings no public file showed', () => {
  it('a JavaScript code node, error strategies and retries', () => {
    const { file } = convertDifyDsl(
      dsl(
        [
          { id: 'start', data: { type: 'start', variables: [] } },
          {
            id: 'js',
            data: {
              type: 'code',
              code_language: 'javascript',
              code: 'function main({a}) { return { b: a + 1 } }',
              variables: [{ variable: 'a', value_selector: ['start', 'a'] }],
              outputs: { b: { type: 'number', children: null } },
              error_strategy: 'default-value',
              default_value: [{ key: 'b', type: 'number', value: 0 }],
              retry_config: { retry_enabled: true, max_retries: 3, retry_interval: 500 },
            },
          },
          {
            id: 'fails',
            data: { type: 'code', code_language: 'python3', code: '', outputs: {}, error_strategy: 'fail-branch' },
          },
        ],
        [{ source: 'fails', sourceHandle: 'fail-branch', target: 'js' }],
      ),
      TEAM,
    );
    const js = node(file, 'js', 'code');
    expect(js.data.language).toBe('javascript');
    expect(js.errors).toEqual({
      timeout_ms: null,
      retry: { max: 3, interval_ms: 500 },
      on_error: 'default',
      default_outputs: { b: 0 },
    });
    expect(node(file, 'fails', 'code').errors.on_error).toBe('fail_branch');
    expect(file.graph.edges).toEqual([{ id: 'fails-fail-js', source: 'fails', source_handle: 'fail', target: 'js' }]);
  });

  it('an id our rule refuses is replaced everywhere it is read, selectors and {{#…#}} alike', () => {
    const { file } = convertDifyDsl(
      dsl(
        [
          { id: 'start', data: { type: 'start', variables: [{ variable: 'q', type: 'text-input', label: 'Q' }] } },
          {
            id: '大模型.1',
            data: { type: 'llm', model: {}, prompt_template: [{ role: 'user', text: '{{#start.q#}}' }] },
          },
          { id: 'env', data: { type: 'answer', answer: 'A: {{#大模型.1.text#}} {{#conversation.turns#}}' } },
        ],
        [
          { source: 'start', target: '大模型.1' },
          { source: '大模型.1', target: 'env' },
        ],
        { conversation_variables: [{ name: 'turns', value_type: 'number', value: 0 }] },
      ),
      TEAM,
    );
    const ids = file.graph.nodes.map((item) => item.id);
    expect(ids).toEqual(['start', 'n_1', 'n_env']);
    expect(node(file, 'n_env', 'answer').data.text).toBe('A: {{#n_1.text#}} {{#env.turns#}}');
    expect(file.graph.edges.map((edge) => [edge.source, edge.target])).toEqual([
      ['start', 'n_1'],
      ['n_1', 'n_env'],
    ]);
  });

  it('a 0.1.0 iteration without a start node begins its body at start_node_id; secrets come empty', () => {
    const { file, notes } = convertDifyDsl(
      {
        ...dsl(
          [
            { id: 's', data: { type: 'start', variables: [{ variable: 'items', type: 'paragraph' }] } },
            {
              id: 'it',
              data: {
                type: 'iteration',
                iterator_selector: ['s', 'items'],
                output_selector: ['t', 'output'],
                start_node_id: 't',
              },
            },
            { id: 't', parentId: 'it', data: { type: 'template-transform', template: '{{ x }}', variables: [] } },
          ],
          [{ source: 's', target: 'it' }],
          { environment_variables: [{ name: 'API_KEY', value_type: 'secret', value: '' }] },
        ),
        version: '0.1.0',
      },
      TEAM,
    );
    expect(handlesFrom(file, 'it')).toEqual([['body', 't']]);
    expect(file.graph.environment).toEqual([{ name: 'API_KEY', type: 'secret', value: '' }]);
    expect(notes).toContainEqual({ key: 'WORKFLOW_IMPORT_SECRET_EMPTY', params: { name: 'API_KEY' }, node_id: null });
  });

  it('HTTP auth kinds and old text bodies', () => {
    const http = (authorization: unknown, body: unknown = { type: 'none', data: '' }) =>
      node(
        convertDifyDsl(
          dsl([{ id: 'h', data: { type: 'http-request', method: 'get', url: 'https://x.test', authorization, body } }]),
          TEAM,
        ).file,
        'h',
        'http',
      ).data;
    expect(http({ type: 'api-key', config: { type: 'bearer', api_key: '{{#env.TOKEN#}}' } }).auth).toEqual({
      type: 'bearer',
      token: '{{#env.TOKEN#}}',
    });
    // A key written out goes to a secret environment variable (the node reads that); a reference stays.
    expect(http({ type: 'api-key', config: { type: 'basic', api_key: 'ann:pw:x' } }).auth).toEqual({
      type: 'basic',
      username: 'ann',
      password: '{{#env.H_AUTHORIZATION#}}',
    });
    expect(http({ type: 'api-key', config: { type: 'custom', header: 'X-Key', api_key: 'k' } }).auth).toEqual({
      type: 'header',
      header: 'X-Key',
      value: '{{#env.H_X_KEY#}}',
    });
    expect(http({ type: 'no-auth' }, { type: 'x-www-form-urlencoded', data: 'a:1\nb:{{#sys.query#}}' }).body).toEqual({
      type: 'form-urlencoded',
      data: 'a=1&b={{#sys.query#}}',
    });
  });

  it('start inputs of every Dify type, and a name our rule refuses renamed where it is read', () => {
    const { file, notes } = convertDifyDsl(
      dsl([
        {
          id: 's',
          data: {
            type: 'start',
            variables: [
              { variable: 'text', type: 'text-input', max_length: 48 },
              { variable: 'long', type: 'paragraph' },
              { variable: 'n', type: 'number' },
              { variable: 'pick', type: 'select', options: ['a', 'b'] },
              { variable: 'doc', type: 'file' },
              { variable: 'docs', type: 'file-list' },
              { variable: '2nd-name', type: 'text-input', required: false },
            ],
          },
        },
        { id: 'a', data: { type: 'answer', answer: '{{#s.2nd-name#}}' } },
      ]),
      TEAM,
    );
    const start = node(file, 's', 'start');
    expect(start.data.inputs.map((input) => [input.name, input.type])).toEqual([
      ['text', 'text'],
      ['long', 'paragraph'],
      ['n', 'number'],
      ['pick', 'select'],
      ['doc', 'file'],
      ['docs', 'text'],
      ['_2nd_name', 'text'],
    ]);
    expect(node(file, 'a', 'answer').data.text).toBe('{{#s._2nd_name#}}');
    expect(notes).toContainEqual(
      expect.objectContaining({
        key: 'WORKFLOW_IMPORT_VALUE_ADJUSTED',
        params: expect.objectContaining({ from: 'file-list' }),
      }),
    );
  });

  it('whatever a hostile document holds, the result passes our schema or is refused with a catalogue error', () => {
    const base = load('svcvit-llm-surrounded.yml');
    const junk = [null, 7, 'x', [], {}, [[1]], { a: '\u0000\ud800' }, -1e308, true];
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    // Replace values deep in the real file with junk, many times over.
    for (let round = 0; round < 300; round++) {
      const doc = structuredClone(base);
      for (let hit = 0; hit < 5; hit++) {
        let target = doc as Record<string, unknown>;
        for (let depth = 0; depth < 8; depth++) {
          const keys = Object.keys(target);
          if (keys.length === 0) break;
          const key = keys[Math.floor(random() * keys.length)];
          const next = target[key];
          if (depth > 2 && (random() < 0.3 || next === null || typeof next !== 'object')) {
            target[key] = junk[Math.floor(random() * junk.length)];
            break;
          }
          if (next === null || typeof next !== 'object') break;
          target = next as Record<string, unknown>;
        }
      }
      try {
        const { file } = convertDifyDsl(doc, TEAM);
        workflowFileSchema.parse(file);
      } catch (error) {
        expect((error as Error).name).toBe('AppError');
      }
    }
  });
});
