import { workflowGraphSchema } from '@athena/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  addNode,
  connect,
  copySelection,
  currentGraph,
  focusNode,
  loadGraph,
  pasteClipboard,
  redo,
  removeSelection,
  undo,
  updateNode,
  useEditorStore,
} from './editor-store.ts';
import { createNode } from './node-kinds.ts';

const graph = workflowGraphSchema.parse({
  nodes: [
    { id: 'start', type: 'start', data: {} },
    {
      id: 'branch',
      type: 'if_else',
      position: { x: 300, y: 0 },
      data: { cases: [{ id: 'case_1' }, { id: 'case_2' }] },
    },
    { id: 'a', type: 'answer', position: { x: 600, y: 0 }, data: { text: 'a' } },
    { id: 'b', type: 'answer', position: { x: 600, y: 200 }, data: { text: 'b' } },
    { id: 'loop', type: 'loop', position: { x: 0, y: 400 }, data: {} },
    { id: 'inner', type: 'answer', parent_id: 'loop', position: { x: 40, y: 80 }, data: { text: '{{#loop.x#}}' } },
  ],
  edges: [
    { id: 's-b', source: 'start', target: 'branch' },
    { id: 'b1', source: 'branch', source_handle: 'case_1', target: 'a' },
    { id: 'b2', source: 'branch', source_handle: 'case_2', target: 'b' },
    { id: 'body', source: 'loop', source_handle: 'body', target: 'inner' },
  ],
});

const ids = () => useEditorStore.getState().nodes.map((node) => node.id);
const edgeIds = () => useEditorStore.getState().edges.map((edge) => edge.id);

describe('editor store', () => {
  beforeEach(() => loadGraph(graph, false));

  it('drops the edges of a case that was removed, and undo brings both back', () => {
    const branch = graph.nodes[1];
    if (branch?.type !== 'if_else') throw new Error('fixture');
    updateNode({ ...branch, data: { cases: branch.data.cases.slice(0, 1) } }, 'cases');
    expect(edgeIds()).toEqual(['s-b', 'b1', 'body']);
    undo();
    expect(edgeIds()).toEqual(['s-b', 'b1', 'b2', 'body']);
    redo();
    expect(edgeIds()).toEqual(['s-b', 'b1', 'body']);
  });

  it('deletes a container with its body and their edges, never the start node', () => {
    focusNode('loop');
    removeSelection();
    expect(ids()).toEqual(['start', 'branch', 'a', 'b']);
    expect(edgeIds()).toEqual(['s-b', 'b1', 'b2']);
    focusNode('start');
    removeSelection();
    expect(ids()).toContain('start');
  });

  it('refuses a connection that breaks a rule and wires one that does not', () => {
    connect({ source: 'a', sourceHandle: 'out', target: 'start', targetHandle: 'in' });
    connect({ source: 'a', sourceHandle: 'out', target: 'inner', targetHandle: 'in' });
    expect(edgeIds()).toHaveLength(4);
    connect({ source: 'a', sourceHandle: 'out', target: 'b', targetHandle: 'in' });
    expect(edgeIds()).toContain('a:out->b');
    expect(useEditorStore.getState().version).toBe(1);
  });

  it('pastes a body node back into its container with a new id', () => {
    focusNode('inner');
    expect(copySelection()).toBe(1);
    pasteClipboard();
    const pasted = useEditorStore.getState().nodes.filter((node) => node.selected);
    expect(pasted).toHaveLength(1);
    expect(pasted[0]?.id).not.toBe('inner');
    expect(pasted[0]?.parentId).toBe('loop');
    expect(workflowGraphSchema.safeParse(currentGraph()).success).toBe(true);
  });

  it('changes nothing when read-only', () => {
    loadGraph(graph, true);
    addNode(createNode('code', { id: 'code_1', title: '', position: { x: 0, y: 0 } }));
    focusNode('a');
    removeSelection();
    expect(ids()).toHaveLength(6);
    expect(useEditorStore.getState().version).toBe(0);
  });
});
