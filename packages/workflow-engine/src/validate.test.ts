import { formatMessage } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { answer, end, graphOf, llm, start } from './test-graphs.ts';
import { validateGraph } from './validate.ts';

const codes = (graph: Parameters<typeof validateGraph>[0]) => validateGraph(graph).map((p) => p.code);

const ifElse = (id: string) => ({
  id,
  type: 'if_else' as const,
  data: {
    cases: [{ id: 'yes', conditions: [{ selector: ['start', 'q'], operator: 'not_empty' as const, value: '' }] }],
  },
});

const iteration = (id: string) => ({
  id,
  type: 'iteration' as const,
  data: { list: ['start', 'items'], output: ['inner', 'text'] },
});

const input = (name: string, type = 'text') => ({ name, type });

describe('validateGraph', () => {
  it('accepts a small complete graph', () => {
    const graph = graphOf(
      [start('start', [input('q')]), llm('l', 'Say {{#start.q#}} to {{#sys.user_id#}}'), answer('a', '{{#l.text#}}')],
      [
        ['start', 'l'],
        ['l', 'a'],
      ],
    );
    expect(validateGraph(graph)).toEqual([]);
  });

  it('needs exactly one top-level start and an end or answer', () => {
    expect(codes(graphOf([llm('l')], []))).toEqual(
      expect.arrayContaining(['WORKFLOW_START_MISSING', 'WORKFLOW_END_MISSING']),
    );
    const twice = validateGraph(
      graphOf(
        [start('s1'), { ...start('s2'), title: 'Second' }, end('e')],
        [
          ['s1', 'e'],
          ['s2', 'e'],
        ],
      ),
    );
    expect(twice).toEqual([{ code: 'WORKFLOW_START_DUPLICATE', node_id: 's2', params: { node: 'Second' } }]);
  });

  it('reports a duplicate node id', () => {
    const problems = validateGraph(graphOf([start('s'), end('e'), end('e')], [['s', 'e']]));
    expect(problems).toEqual([{ code: 'WORKFLOW_NODE_DUPLICATE_ID', node_id: 'e', params: { node: 'e' } }]);
  });

  it('refuses the reserved ids sys and env, which would shadow the system and environment variables', () => {
    const problems = validateGraph(
      graphOf(
        [start('s'), llm('sys'), end('env')],
        [
          ['s', 'sys'],
          ['sys', 'env'],
        ],
      ),
    );
    expect(problems.filter((found) => found.code === 'WORKFLOW_NODE_ID_INVALID')).toEqual([
      { code: 'WORKFLOW_NODE_ID_INVALID', node_id: 'sys', params: { node: 'sys' } },
      { code: 'WORKFLOW_NODE_ID_INVALID', node_id: 'env', params: { node: 'env' } },
    ]);
    expect(validateGraph(graphOf([start('s'), end('system')], [['s', 'system']]))).toEqual([]);
  });

  it('refuses edges to unknown nodes, unknown handles and across scopes', () => {
    const graph = graphOf(
      [
        start('start', [input('q'), input('items', 'json')]),
        ifElse('if'),
        llm('l'),
        end('e'),
        iteration('it'),
        { ...llm('inner'), parent_id: 'it' },
      ],
      [
        ['start', 'if'],
        ['if', 'l', 'yes'],
        ['if', 'e', 'else'],
        ['l', 'e'],
        ['start', 'it'],
        ['it', 'inner', 'body'],
        ['it', 'e'],
        // the invalid ones
        ['if', 'e', 'maybe'],
        ['l', 'e', 'fail'],
        ['l', 'inner', 'body'],
        ['start', 'inner'],
        ['l', 'ghost'],
        ['e', 'l'],
        ['l', 'start'],
      ],
    );
    const problems = validateGraph(graph);
    expect(problems.map((p) => [p.code, p.params.edge])).toEqual([
      ['WORKFLOW_EDGE_INVALID', 'e7'],
      ['WORKFLOW_EDGE_INVALID', 'e8'],
      ['WORKFLOW_EDGE_INVALID', 'e9'],
      ['WORKFLOW_EDGE_INVALID', 'e10'],
      ['WORKFLOW_EDGE_INVALID', 'e11'],
      ['WORKFLOW_EDGE_INVALID', 'e12'],
      ['WORKFLOW_EDGE_INVALID', 'e13'],
    ]);
  });

  it('accepts a fail edge only when the node takes the fail branch', () => {
    const failing = {
      ...llm('l'),
      errors: { on_error: 'fail_branch' as const },
    };
    const graph = graphOf(
      [start('s'), failing, answer('ok', '{{#l.text#}}'), answer('ko', 'Sorry: {{#l.error_message#}}')],
      [
        ['s', 'l'],
        ['l', 'ok'],
        ['l', 'ko', 'fail'],
      ],
    );
    expect(validateGraph(graph)).toEqual([]);
  });

  it('reports unconnected nodes and a start with nothing after it', () => {
    const problems = validateGraph(graphOf([start('s'), { ...llm('l'), title: 'Lonely' }, end('e')], []));
    expect(problems.filter((p) => p.code === 'WORKFLOW_NODE_UNCONNECTED')).toEqual([
      { code: 'WORKFLOW_NODE_UNCONNECTED', node_id: 's', params: { node: 's' } },
      { code: 'WORKFLOW_NODE_UNCONNECTED', node_id: 'l', params: { node: 'Lonely' } },
      { code: 'WORKFLOW_NODE_UNCONNECTED', node_id: 'e', params: { node: 'e' } },
    ]);
  });

  it('reports each cycle once, at its first node', () => {
    const graph = graphOf(
      [start('s'), llm('a'), llm('b'), llm('c'), llm('d'), end('e')],
      [
        ['s', 'a'],
        ['a', 'b'],
        ['b', 'a'],
        ['b', 'c'],
        ['c', 'd'],
        ['d', 'd'],
        ['d', 'e'],
      ],
    );
    expect(validateGraph(graph)).toEqual([
      { code: 'WORKFLOW_CYCLE', node_id: 'a', params: { node: 'a' } },
      { code: 'WORKFLOW_CYCLE', node_id: 'd', params: { node: 'd' } },
    ]);
  });

  it('reports selectors and references that are not offered to the node', () => {
    const graph = graphOf(
      [
        start('start', [input('q')]),
        llm('a', '{{#start.q#}} {{#b.text#}} {{#start.nope#}} {{#env.MISSING#}} {{#env.KEY#}} {{#sys.nope#}}'),
        llm('b', '{{#a.text#}} {{#a.text#}}'),
        { id: 'e', title: 'Done', type: 'end', data: { outputs: [{ name: 'x', selector: ['ghost', 'out'] }] } },
      ],
      [
        ['start', 'a'],
        ['a', 'b'],
        ['b', 'e'],
      ],
      { environment: [{ name: 'KEY', type: 'secret', value: 's3cret' }] },
    );
    expect(validateGraph(graph)).toEqual([
      { code: 'WORKFLOW_SELECTOR_UNKNOWN', node_id: 'a', params: { node: 'a', selector: 'b.text' } },
      { code: 'WORKFLOW_SELECTOR_UNKNOWN', node_id: 'a', params: { node: 'a', selector: 'start.nope' } },
      { code: 'WORKFLOW_SELECTOR_UNKNOWN', node_id: 'a', params: { node: 'a', selector: 'env.MISSING' } },
      { code: 'WORKFLOW_SELECTOR_UNKNOWN', node_id: 'a', params: { node: 'a', selector: 'sys.nope' } },
      { code: 'WORKFLOW_SELECTOR_UNKNOWN', node_id: 'e', params: { node: 'Done', selector: 'ghost.out' } },
    ]);
  });

  it('does not let one parallel branch read the other', () => {
    const graph = graphOf(
      [start('s'), llm('left'), llm('right', '{{#left.text#}}'), answer('a', '{{#left.text#}}{{#right.text#}}')],
      [
        ['s', 'left'],
        ['s', 'right'],
        ['left', 'a'],
        ['right', 'a'],
      ],
    );
    expect(validateGraph(graph).map((p) => [p.node_id, p.params.selector])).toEqual([['right', 'left.text']]);
  });

  it('scopes iteration bodies: item and index inside, body outputs only as the result', () => {
    const graph = graphOf(
      [
        start('start', [input('q'), input('items', 'json')]),
        iteration('it'),
        { ...llm('inner', '{{#it.item#}} {{#it.index#}} {{#start.q#}}'), parent_id: 'it' },
        llm('after', '{{#it.output#}} {{#inner.text#}} {{#it.item#}}'),
        end('e'),
      ],
      [
        ['start', 'it'],
        ['it', 'inner', 'body'],
        ['it', 'after'],
        ['after', 'e'],
      ],
    );
    expect(validateGraph(graph).map((p) => [p.node_id, p.params.selector])).toEqual([
      ['after', 'inner.text'],
      ['after', 'it.item'],
    ]);
  });

  it('needs the iteration result to come from its own body', () => {
    const graph = graphOf(
      [
        start('start', [input('items', 'json')]),
        { ...iteration('it'), data: { list: ['start', 'items'], output: ['start', 'items'] } },
        { ...llm('inner'), parent_id: 'it' },
        end('e'),
      ],
      [
        ['start', 'it'],
        ['it', 'inner', 'body'],
        ['it', 'e'],
      ],
    );
    expect(validateGraph(graph).map((p) => [p.code, p.params.selector])).toEqual([
      ['WORKFLOW_SELECTOR_UNKNOWN', 'start.items'],
    ]);
  });

  it('lets a loop body read and assign the loop variables, and the break condition test them', () => {
    const graph = graphOf(
      [
        start('s'),
        {
          id: 'loop',
          type: 'loop',
          data: {
            variables: [{ name: 'n', type: 'number', initial: '0' }],
            break_when: { conditions: [{ selector: ['loop', 'n'], operator: 'ge', value: '3' }] },
          },
        },
        {
          id: 'add',
          type: 'assigner',
          parent_id: 'loop',
          data: { items: [{ target: ['loop', 'n'], operation: 'add', constant: '1' }] },
        },
        end('e', [{ name: 'n', selector: ['loop', 'n'] }]),
      ],
      [
        ['s', 'loop'],
        ['loop', 'add', 'body'],
        ['loop', 'e'],
      ],
    );
    expect(validateGraph(graph)).toEqual([]);
  });

  it('reports unsupported and unconfigured nodes, and a body-less iteration', () => {
    const graph = graphOf(
      [
        start('s'),
        { id: 'tool', title: 'Search', type: 'unsupported', data: { original_type: 'tool' } },
        { id: 'ag', type: 'agent', data: { agent_id: '', query: 'x' } },
        { id: 'kb', type: 'knowledge', data: { query: ['sys', 'query'] } },
        { id: 'h', type: 'http', data: { method: 'GET', url: ' ' } },
        { ...iteration('it'), data: { list: ['sys', 'files'], output: ['sys', 'files'] } },
        end('e'),
      ],
      [
        ['s', 'tool'],
        ['tool', 'ag'],
        ['ag', 'kb'],
        ['kb', 'h'],
        ['h', 'it'],
        ['it', 'e'],
      ],
    );
    expect(validateGraph(graph).map((p) => [p.code, p.node_id, p.params.type ?? p.params.field])).toEqual([
      ['WORKFLOW_NODE_UNSUPPORTED', 'tool', 'tool'],
      ['WORKFLOW_NODE_INCOMPLETE', 'ag', 'agent'],
      ['WORKFLOW_NODE_INCOMPLETE', 'kb', 'knowledge bases'],
      ['WORKFLOW_NODE_INCOMPLETE', 'h', 'URL'],
      ['WORKFLOW_NODE_INCOMPLETE', 'it', 'body'],
      ['WORKFLOW_SELECTOR_UNKNOWN', 'it', undefined],
    ]);
    // People read what is missing as the node's panel names it, never the field's internal name.
    const texts = validateGraph(graph)
      .filter((p) => p.code === 'WORKFLOW_NODE_INCOMPLETE')
      .map((p) => formatMessage('WORKFLOW_NODE_INCOMPLETE', 'zh-CN', p.params));
    expect(texts).toEqual([
      '节点“ag”尚未配置：智能体。',
      '节点“kb”尚未配置：知识库。',
      '节点“h”尚未配置：请求地址。',
      '节点“it”尚未配置：循环内的节点。',
    ]);
  });

  it('names every field a node may miss in each language', () => {
    const fields = ['agent', 'workflow', 'MCP tool', 'code', 'URL', 'knowledge bases', 'template', 'text', 'prompt'];
    fields.push('parameters', 'classes', 'conditions', 'body');
    for (const field of fields) {
      for (const language of ['zh-CN', 'zh-TW'] as const) {
        // Latin letters only in a product's name (MCP).
        const text = formatMessage('WORKFLOW_NODE_INCOMPLETE', language, { node: 'n', field });
        expect(text.replace('MCP', ''), field).not.toMatch(/[A-Za-z]{3,}/);
      }
    }
  });

  it('validates a 2 000-node chain where every node reads the start and its predecessor', () => {
    const size = 2_000;
    const nodes = [start('start', [input('q')])];
    const edges: Array<[string, string]> = [];
    let previous = 'start';
    for (let i = 1; i < size - 1; i++) {
      const read = previous === 'start' ? '' : ` {{#${previous}.text#}}`;
      nodes.push(llm(`n${i}`, `{{#start.q#}}${read}`));
      edges.push([previous, `n${i}`]);
      previous = `n${i}`;
    }
    nodes.push(end('end', [{ name: 'out', selector: [previous, 'text'] }]));
    edges.push([previous, 'end']);
    expect(validateGraph(graphOf(nodes, edges))).toEqual([]);

    // The first node reading the last one is a problem; so is one back-edge closing the chain.
    nodes[1] = llm('n1', '{{#n1998.text#}}');
    edges.push(['n1998', 'n1']);
    expect(validateGraph(graphOf(nodes, edges)).map((p) => [p.code, p.node_id])).toEqual([['WORKFLOW_CYCLE', 'n1']]);
    edges.pop();
    expect(validateGraph(graphOf(nodes, edges)).map((p) => [p.code, p.node_id, p.params.selector])).toEqual([
      ['WORKFLOW_SELECTOR_UNKNOWN', 'n1', 'n1998.text'],
    ]);
  });
});
