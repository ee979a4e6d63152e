import { describe, expect, it } from 'vitest';
import { connectionRefusal, type RuleEdge, type RuleNode } from './connection-rules.ts';

const nodes = new Map<string, RuleNode>([
  ['start', { type: 'start', parent_id: null }],
  ['a', { type: 'llm', parent_id: null }],
  ['b', { type: 'llm', parent_id: null }],
  ['c', { type: 'end', parent_id: null }],
  ['loop', { type: 'loop', parent_id: null }],
  ['in1', { type: 'code', parent_id: 'loop' }],
  ['in2', { type: 'code', parent_id: 'loop' }],
]);
const edges: RuleEdge[] = [
  { source: 'start', target: 'a', sourceHandle: 'out' },
  { source: 'a', target: 'b', sourceHandle: 'out' },
  { source: 'loop', target: 'in1', sourceHandle: 'body' },
];

describe('connection rules', () => {
  it('allows an ordinary forward edge', () => {
    expect(connectionRefusal(nodes, edges, { source: 'b', target: 'c', sourceHandle: 'out' })).toBeNull();
    expect(connectionRefusal(nodes, edges, { source: 'in1', target: 'in2', sourceHandle: 'out' })).toBeNull();
  });

  it('refuses an edge into start', () => {
    expect(connectionRefusal(nodes, edges, { source: 'b', target: 'start' })).toBe('intoStart');
  });

  it('refuses an edge that closes a cycle, and one to itself', () => {
    expect(connectionRefusal(nodes, edges, { source: 'b', target: 'a', sourceHandle: 'out' })).toBe('cycle');
    expect(connectionRefusal(nodes, edges, { source: 'a', target: 'a' })).toBe('self');
  });

  it('refuses an edge across a container boundary, either way', () => {
    expect(connectionRefusal(nodes, edges, { source: 'a', target: 'in1' })).toBe('crossesContainer');
    expect(connectionRefusal(nodes, edges, { source: 'in2', target: 'c' })).toBe('crossesContainer');
  });

  it('lets a body start only inside its own container', () => {
    expect(connectionRefusal(nodes, edges, { source: 'loop', target: 'in2', sourceHandle: 'body' })).toBeNull();
    expect(connectionRefusal(nodes, edges, { source: 'loop', target: 'c', sourceHandle: 'body' })).toBe('bodyOutside');
    expect(connectionRefusal(nodes, edges, { source: 'a', target: 'b', sourceHandle: 'body' })).toBe('bodyOutside');
  });

  it('refuses the same edge twice', () => {
    expect(connectionRefusal(nodes, edges, { source: 'a', target: 'b', sourceHandle: 'out' })).toBe('duplicate');
    expect(connectionRefusal(nodes, edges, { source: 'a', target: 'b', sourceHandle: 'fail' })).toBeNull();
  });
});
