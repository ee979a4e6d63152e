import { workflowGraphSchema } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { copyNodes, pasteClip } from './clipboard.ts';

const graph = workflowGraphSchema.parse({
  nodes: [
    { id: 'start', type: 'start', data: {} },
    { id: 'llm', type: 'llm', position: { x: 100, y: 0 }, data: {} },
    {
      id: 'answer',
      type: 'answer',
      position: { x: 400, y: 0 },
      data: { text: 'A: {{#llm.text#}} Q: {{#sys.query#}} {{#start.x#}}' },
    },
    {
      id: 'iter',
      type: 'iteration',
      position: { x: 700, y: 0 },
      data: { list: ['llm', 'text'], output: ['tpl', 'output'] },
    },
    {
      id: 'tpl',
      type: 'template',
      parent_id: 'iter',
      position: { x: 40, y: 60 },
      data: { template: '{{#iter.item#}}' },
    },
  ],
  edges: [
    { id: 's-l', source: 'start', target: 'llm' },
    { id: 'l-a', source: 'llm', target: 'answer' },
    { id: 'a-i', source: 'answer', target: 'iter' },
    { id: 'i-t', source: 'iter', source_handle: 'body', target: 'tpl' },
  ],
});

describe('copy and paste', () => {
  it('copies the selection with container bodies and inner edges, never the start node', () => {
    const clip = copyNodes(graph, new Set(['start', 'llm', 'answer']));
    expect(clip.nodes.map((node) => node.id)).toEqual(['llm', 'answer']);
    expect(clip.edges.map((edge) => edge.id)).toEqual(['l-a']);
    const withBody = copyNodes(graph, new Set(['iter']));
    expect(withBody.nodes.map((node) => node.id)).toEqual(['iter', 'tpl']);
    expect(withBody.edges.map((edge) => edge.id)).toEqual(['i-t']);
  });

  it('pastes with new ids and renames references between the pasted nodes only', () => {
    const taken = new Set(graph.nodes.map((node) => node.id));
    const pasted = pasteClip(copyNodes(graph, new Set(['llm', 'answer', 'iter'])), taken, { x: 40, y: 40 });
    const ids = pasted.nodes.map((node) => node.id);
    expect(new Set(ids).size).toBe(4);
    for (const id of ids) expect(taken.has(id)).toBe(false);
    const [llm, answer, iter, tpl] = pasted.nodes;
    expect(answer?.type === 'answer' && answer.data.text).toBe(
      `A: {{#${llm?.id}.text#}} Q: {{#sys.query#}} {{#start.x#}}`,
    );
    expect(iter?.type === 'iteration' && iter.data).toMatchObject({
      list: [llm?.id, 'text'],
      output: [tpl?.id, 'output'],
    });
    expect(tpl?.type === 'template' && tpl.data.template).toBe(`{{#${iter?.id}.item#}}`);
    expect(tpl?.parent_id).toBe(iter?.id);
    expect(tpl?.position).toEqual({ x: 40, y: 60 });
    expect(llm?.position).toEqual({ x: 140, y: 40 });
    expect(pasted.edges).toEqual([
      { id: `${llm?.id}:out->${answer?.id}`, source: llm?.id, source_handle: 'out', target: answer?.id },
      { id: `${answer?.id}:out->${iter?.id}`, source: answer?.id, source_handle: 'out', target: iter?.id },
      { id: `${iter?.id}:body->${tpl?.id}`, source: iter?.id, source_handle: 'body', target: tpl?.id },
    ]);
    expect(
      workflowGraphSchema.safeParse({ nodes: [...graph.nodes, ...pasted.nodes], edges: pasted.edges }).success,
    ).toBe(true);
  });
});
