import type { Selector } from '@athena/contract';
import type { ExecutionScope, SystemVariables } from './types.ts';

// The variable pool, as frames: the top level is one frame, and each iteration item or loop round
// is a frame of its own whose parent is the frame its iteration or loop ran in. A node reads its
// own frame first, then outward, exactly the scoping offeredVariables describes.

export interface Frame {
  parent: Frame | null;
  /** Outputs of the nodes that ran in this frame. */
  outputs: Map<string, Record<string, unknown>>;
  /** The iteration's item and index, or the loop's variables (which its assigners change). */
  scope: { node_id: string; values: Record<string, unknown> } | null;
  path: ExecutionScope['path'];
}

export interface Globals {
  system: SystemVariables;
  env: Record<string, unknown>;
}

export function topFrame(): Frame {
  return { parent: null, outputs: new Map(), scope: null, path: [] };
}

export function childFrame(parent: Frame, nodeId: string, index: number, values: Record<string, unknown>): Frame {
  return {
    parent,
    outputs: new Map(),
    scope: { node_id: nodeId, values },
    path: [...parent.path, { node_id: nodeId, index }],
  };
}

const own = (value: object, key: string) => Object.hasOwn(value, key);

/** Follows a path into a value: object keys and array indices; anything else is undefined. */
export function walk(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    if (Array.isArray(current)) {
      const at = Number(key);
      current = Number.isInteger(at) ? current[at < 0 ? current.length + at : at] : undefined;
    } else current = own(current, key) ? (current as Record<string, unknown>)[key] : undefined;
  }
  return current;
}

/** The frame that holds a node's values as seen from `frame` (its outputs or its scope values). */
export function holderOf(frame: Frame, nodeId: string): Record<string, unknown> | undefined {
  for (let at: Frame | null = frame; at; at = at.parent) {
    if (at.scope?.node_id === nodeId) return at.scope.values;
    const outputs = at.outputs.get(nodeId);
    if (outputs) return outputs;
  }
  return undefined;
}

export function readSelector(frame: Frame, globals: Globals, selector: Selector): unknown {
  const [head, name, ...path] = selector as [string, string, ...string[]];
  let holder: Record<string, unknown> | undefined;
  if (head === 'sys') holder = globals.system as unknown as Record<string, unknown>;
  else if (head === 'env') holder = globals.env;
  else holder = holderOf(frame, head);
  if (!holder || !own(holder, name)) return undefined;
  return walk(holder[name], path);
}

/** `nodeId` plus the iteration items and loop rounds around it: unique per execution. */
export function executionIdOf(frame: Frame, nodeId: string): string {
  if (frame.path.length === 0) return nodeId;
  return `${frame.path.map((step) => `${step.node_id}[${step.index}]`).join('/')}/${nodeId}`;
}
