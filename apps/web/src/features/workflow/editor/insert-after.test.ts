import { describe, expect, it } from 'vitest';
import { ADD_GAP, planInsertAfter } from './insert-after.ts';

const node = (id: string, x: number, y = 0, parentId?: string) => ({ id, position: { x, y }, parentId });
const edge = (source: string, target: string, sourceHandle = 'out') => ({
  id: `${source}:${sourceHandle}->${target}`,
  source,
  target,
  sourceHandle,
});

describe('adding a node after the selected one', () => {
  it('goes between start and end, and end with what follows it moves right to make room', () => {
    const nodes = [node('start', 0), node('end', 320), node('after-end', 640), node('elsewhere', 320, 400)];
    const edges = [edge('start', 'end'), edge('end', 'after-end')];
    const plan = planInsertAfter(nodes, edges, nodes[0], 'out', true);
    expect(plan.position).toEqual({ x: 240 + ADD_GAP, y: 0 });
    expect(plan.next).toEqual({ id: 'end', edgeId: 'start:out->end' });
    const shift = 240 + ADD_GAP + 240 + ADD_GAP - 320;
    expect(plan.moved).toEqual(
      new Map([
        ['end', { x: 320 + shift, y: 0 }],
        ['after-end', { x: 640 + shift, y: 0 }],
      ]),
    );
  });

  it('moves nothing when the successor is already far enough away', () => {
    const nodes = [node('start', 0), node('end', 2000)];
    const plan = planInsertAfter(nodes, [edge('start', 'end')], nodes[0], 'out', true);
    expect(plan.next?.id).toBe('end');
    expect(plan.moved.size).toBe(0);
  });

  it('does not chain a node that has no way out (an end), nor after a fan-out; it never covers a node', () => {
    const nodes = [node('a', 0), node('b', 320), node('c', 320, 112)];
    const fanOut = [edge('a', 'b'), edge('a', 'c')];
    const plan = planInsertAfter(nodes, fanOut, nodes[0], 'out', true);
    expect(plan.next).toBeNull();
    expect(plan.position).toEqual({ x: 320, y: 224 });
    const end = planInsertAfter(nodes, [edge('a', 'b')], nodes[0], 'out', false);
    expect(end.next).toBeNull();
    expect(end.position.y).toBe(224);
  });

  it('stays on the selected node’s level inside a container', () => {
    const nodes = [node('loop', 0), node('in1', 40, 64, 'loop'), node('in2', 360, 64, 'loop'), node('out', 360, 64)];
    const plan = planInsertAfter(nodes, [edge('in1', 'in2')], nodes[1], 'out', true);
    expect(plan.next?.id).toBe('in2');
    expect([...plan.moved.keys()]).toEqual(['in2']);
  });
});
