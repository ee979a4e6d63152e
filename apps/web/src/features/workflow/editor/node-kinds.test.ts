import { WORKFLOW_NODE_TYPES, workflowNodeSchema } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { createNode, DEFAULT_DATA, newNodeId, PALETTE_GROUPS, PALETTE_KINDS, sourceHandlesOf } from './node-kinds.ts';

describe('node kinds', () => {
  it('gives every kind but the imported placeholder default data that passes the schema', () => {
    expect(Object.keys(DEFAULT_DATA).sort()).toEqual(
      WORKFLOW_NODE_TYPES.filter((type) => type !== 'unsupported').sort(),
    );
    for (const type of PALETTE_KINDS) {
      const node = createNode(type as keyof typeof DEFAULT_DATA, {
        id: `${type}_1`,
        title: type,
        position: { x: 1, y: 2 },
      });
      expect(workflowNodeSchema.safeParse(node).success, type).toBe(true);
      expect(node.type).toBe(type);
    }
  });

  it('offers every palette kind in exactly one group', () => {
    const grouped = PALETTE_GROUPS.flatMap((group) => group.kinds);
    expect([...grouped].sort()).toEqual([...PALETTE_KINDS].sort());
  });

  it('makes ids that are new and fit a reference', () => {
    const taken = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const id = newNodeId('if_else', taken);
      expect(taken.has(id)).toBe(false);
      expect(id).toMatch(/^if_else_[a-z0-9]+$/);
      taken.add(id);
    }
  });

  it('draws one source handle per case, class and fail branch', () => {
    const ifElse = createNode('if_else', { id: 'a', title: '', position: { x: 0, y: 0 } });
    expect(sourceHandlesOf(ifElse)).toEqual(['case_1', 'else']);
    const classifier = createNode('classifier', { id: 'c', title: '', position: { x: 0, y: 0 } });
    expect(sourceHandlesOf(classifier)).toEqual(['class_1', 'class_2']);
    const llm = createNode('llm', { id: 'l', title: '', position: { x: 0, y: 0 } });
    expect(sourceHandlesOf(llm)).toEqual(['out']);
    expect(sourceHandlesOf({ ...llm, errors: { ...llm.errors, on_error: 'fail_branch' } })).toEqual(['out', 'fail']);
    const end = createNode('end', { id: 'e', title: '', position: { x: 0, y: 0 } });
    expect(sourceHandlesOf(end)).toEqual([]);
  });
});
