import type { WorkflowNodeType } from '@athena/contract';
import { isContainer } from './node-kinds.ts';

/** Why the canvas refuses a connection (locale key `workflowEditor.connection.<reason>`). */
export type ConnectionRefusal = 'self' | 'intoStart' | 'cycle' | 'crossesContainer' | 'duplicate' | 'bodyOutside';

export interface RuleNode {
  type: WorkflowNodeType;
  parent_id: string | null;
}
export interface RuleEdge {
  source: string;
  target: string;
  sourceHandle?: string | null;
}
export interface Attempt {
  source: string;
  target: string;
  sourceHandle?: string | null;
}

/** True when `to` can be reached from `from` along edges. */
function reaches(edges: readonly RuleEdge[], from: string, to: string): boolean {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    const list = next.get(edge.source);
    if (list) list.push(edge.target);
    else next.set(edge.source, [edge.target]);
  }
  const seen = new Set([from]);
  const stack = [from];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (id === to) return true;
    for (const target of next.get(id) ?? []) {
      if (!seen.has(target)) {
        seen.add(target);
        stack.push(target);
      }
    }
  }
  return false;
}

/**
 * Whether the canvas may draw an edge: never into the start node, never a cycle (repeating steps
 * is what a loop node is for), and never across a container's edge. Inside an iteration or loop,
 * the body hangs from the container's `body` handle; everything else connects nodes that share a
 * parent.
 */
export function connectionRefusal(
  nodes: ReadonlyMap<string, RuleNode>,
  edges: readonly RuleEdge[],
  attempt: Attempt,
): ConnectionRefusal | null {
  const source = nodes.get(attempt.source);
  const target = nodes.get(attempt.target);
  if (!source || !target || attempt.source === attempt.target) return 'self';
  if (target.type === 'start') return 'intoStart';
  const handle = attempt.sourceHandle ?? 'out';
  if (handle === 'body') {
    if (!isContainer(source.type) || target.parent_id !== attempt.source) return 'bodyOutside';
  } else if (source.parent_id !== target.parent_id) {
    return 'crossesContainer';
  }
  if (
    edges.some(
      (edge) =>
        edge.source === attempt.source && edge.target === attempt.target && (edge.sourceHandle ?? 'out') === handle,
    )
  ) {
    return 'duplicate';
  }
  if (reaches(edges, attempt.target, attempt.source)) return 'cycle';
  return null;
}
