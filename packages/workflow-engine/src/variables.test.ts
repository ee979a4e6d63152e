import { type WorkflowNode, workflowNodeSchema } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { outputsOf } from './outputs.ts';
import { answer, end, graphOf, llm, start } from './test-graphs.ts';
import { validateGraph } from './validate.ts';
import { offeredVariables } from './variables.ts';

const node = (input: Record<string, unknown>): WorkflowNode => workflowNodeSchema.parse({ id: 'n', ...input });
const names = (input: Record<string, unknown>) => outputsOf(node(input)).map((o) => `${o.name}:${o.type}`);

describe('outputsOf', () => {
  it('gives each node kind its outputs', () => {
    expect(
      names({
        type: 'start',
        data: {
          inputs: [
            { name: 'q', type: 'paragraph' },
            { name: 'n', type: 'number' },
          ],
        },
      }),
    ).toEqual(['q:string', 'n:number']);
    expect(names({ type: 'llm', data: {} })).toEqual(['text:string', 'usage:object']);
    expect(names({ type: 'llm', data: { json_schema: { type: 'object' } } })).toEqual([
      'text:string',
      'structured:object',
      'usage:object',
    ]);
    expect(names({ type: 'knowledge', data: { query: ['sys', 'query'] } })).toEqual(['result:array[object]']);
    expect(names({ type: 'classifier', data: { query: ['sys', 'query'], classes: [{ id: 'a', name: 'A' }] } })).toEqual(
      ['class_name:string'],
    );
    expect(
      names({
        type: 'extractor',
        data: { query: ['sys', 'query'], parameters: [{ name: 'city', type: 'string' }] },
      }),
    ).toEqual(['city:string', '__is_success:number', '__reason:string']);
    expect(names({ type: 'template', data: { template: 'x' } })).toEqual(['output:string']);
    expect(
      names({ type: 'code', data: { language: 'javascript', code: 'x', outputs: [{ name: 'r', type: 'array' }] } }),
    ).toEqual(['r:array']);
    expect(names({ type: 'http', data: { method: 'GET', url: 'x' } })).toEqual([
      'status_code:number',
      'body:string',
      'headers:object',
    ]);
    expect(names({ type: 'aggregator', data: { selectors: [['a', 'b']], output_type: 'number' } })).toEqual([
      'output:number',
    ]);
    expect(names({ type: 'list_operator', data: { list: ['a', 'b'] } })).toEqual([
      'result:array',
      'first:any',
      'last:any',
    ]);
    expect(names({ type: 'iteration', data: { list: ['a', 'b'], output: ['c', 'd'] } })).toEqual(['output:array']);
    expect(names({ type: 'loop', data: { variables: [{ name: 'i', type: 'number', initial: '0' }] } })).toEqual([
      'i:number',
    ]);
    expect(names({ type: 'agent', data: { agent_id: 'a', query: 'q' } })).toEqual(['text:string']);
    expect(names({ type: 'sub_workflow', data: { workflow_id: 'w' } })).toEqual(['outputs:object', 'answer:string']);
    expect(names({ type: 'answer', data: { text: 'x' } })).toEqual(['answer:string']);
    expect(names({ type: 'end', data: {} })).toEqual([]);
    expect(names({ type: 'assigner', data: { items: [{ target: ['a', 'b'], operation: 'clear' }] } })).toEqual([]);
    expect(names({ type: 'unsupported', data: { original_type: 'tool' } })).toEqual([]);
  });

  it('adds error_message to a node that takes the fail branch', () => {
    expect(names({ type: 'agent', data: { agent_id: 'a', query: 'q' }, errors: { on_error: 'fail_branch' } })).toEqual([
      'text:string',
      'error_message:string',
    ]);
  });
});

const offered = (graph: Parameters<typeof offeredVariables>[0], id: string) =>
  offeredVariables(graph, id).map((v) => `${v.node_id}.${v.name}`);
const SYS = ['sys.query', 'sys.files', 'sys.user_id', 'sys.run_id', 'sys.workflow_id', 'sys.conversation_id'];

describe('offeredVariables', () => {
  const graph = graphOf(
    [
      start('start', [{ name: 'q', type: 'text' }]),
      { ...llm('a'), title: 'First' },
      llm('b'),
      llm('side'),
      { id: 'it', type: 'iteration', data: { list: ['start', 'q'], output: ['body1', 'text'] } },
      { ...llm('body1'), parent_id: 'it' },
      { ...llm('body2'), parent_id: 'it' },
      {
        id: 'loop',
        type: 'loop',
        parent_id: 'it',
        data: { variables: [{ name: 'count', type: 'number', initial: '0' }] },
      },
      { ...llm('deep'), parent_id: 'loop' },
      answer('out', '{{#it.output#}}'),
      end('e'),
    ],
    [
      ['start', 'a'],
      ['a', 'b'],
      ['start', 'side'],
      ['b', 'it'],
      ['it', 'body1', 'body'],
      ['body1', 'body2'],
      ['body2', 'loop'],
      ['loop', 'deep', 'body'],
      ['it', 'out'],
      ['side', 'out'],
      ['out', 'e'],
    ],
    { environment: [{ name: 'TOKEN', type: 'secret', value: 'x' }] },
  );

  it('offers the upstream outputs, sys and env, and nothing from a parallel branch or downstream', () => {
    expect(offered(graph, 'b')).toEqual(['start.q', 'a.text', 'a.usage', ...SYS, 'env.TOKEN']);
    expect(offeredVariables(graph, 'b')[1]).toEqual({
      node_id: 'a',
      node_title: 'First',
      node_type: 'llm',
      name: 'text',
      type: 'string',
    });
    expect(offered(graph, 'start')).toEqual([...SYS, 'env.TOKEN']);
  });

  it('offers after an iteration its result, not its body', () => {
    expect(offered(graph, 'out')).toEqual([
      'start.q',
      'a.text',
      'a.usage',
      'b.text',
      'b.usage',
      'side.text',
      'side.usage',
      'it.output',
      ...SYS,
      'env.TOKEN',
    ]);
  });

  it('offers inside bodies the scope values, the body upstream and every enclosing upstream', () => {
    expect(offered(graph, 'body2')).toEqual([
      'it.item',
      'it.index',
      'start.q',
      'a.text',
      'a.usage',
      'b.text',
      'b.usage',
      'body1.text',
      'body1.usage',
      ...SYS,
      'env.TOKEN',
    ]);
    expect(offered(graph, 'deep')).toEqual([
      'loop.count',
      'it.item',
      'it.index',
      'start.q',
      'a.text',
      'a.usage',
      'b.text',
      'b.usage',
      'body1.text',
      'body1.usage',
      'body2.text',
      'body2.usage',
      ...SYS,
      'env.TOKEN',
    ]);
  });

  it('offers exactly what validation accepts', () => {
    for (const node of graph.nodes) {
      if (node.type !== 'llm') continue;
      const offeredHere = offeredVariables(graph, node.id);
      const reading = structuredClone(graph);
      const target = reading.nodes.find((n) => n.id === node.id);
      if (target?.type !== 'llm') throw new Error('an llm node');
      target.data.user_prompt = offeredHere.map((v) => `{{#${v.node_id}.${v.name}#}}`).join(' ');
      expect(validateGraph(reading).filter((p) => p.code === 'WORKFLOW_SELECTOR_UNKNOWN')).toEqual([]);
      // Any other node's output is refused.
      const others = graph.nodes.filter((n) => n.id !== node.id && !offeredHere.some((v) => v.node_id === n.id));
      for (const other of others) {
        target.data.user_prompt = `{{#${other.id}.text#}}`;
        const refused = validateGraph(reading).filter((p) => p.code === 'WORKFLOW_SELECTOR_UNKNOWN');
        expect(refused.map((p) => [p.node_id, p.params.selector])).toEqual([[node.id, `${other.id}.text`]]);
      }
    }
  });

  it('offers only sys and env to an unknown node', () => {
    expect(offered(graph, 'nope')).toEqual([...SYS, 'env.TOKEN']);
  });
});
