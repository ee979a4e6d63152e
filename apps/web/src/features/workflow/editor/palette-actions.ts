import type { WorkflowNodeType } from '@athena/contract';
import type { ReactFlowInstance } from '@xyflow/react';
import type { TFunction } from 'i18next';
import { addNode, useEditorStore } from './editor-store.ts';
import { type FlowEdge, type FlowNode, NODE_HEIGHT, NODE_WIDTH } from './graph-flow.ts';
import { createNode, DEFAULT_DATA, newNodeId, type PaletteKind, sourceHandlesOf } from './node-kinds.ts';

/** The drag data type a palette item carries (its value is the node kind). */
export const PALETTE_DRAG_TYPE = 'application/x-athena-workflow-node';

type Flow = ReactFlowInstance<FlowNode, FlowEdge>;

export const isPaletteKind = (kind: string): kind is PaletteKind => Object.hasOwn(DEFAULT_DATA, kind);

/** Why a kind was not added (a workflow has one start node). */
export type AddRefusal = 'oneStart' | 'unknown' | 'readOnly';

function titleFor(kind: WorkflowNodeType, t: TFunction): string {
  const name = t(`workflowEditor.kinds.${kind}.name`);
  const count = useEditorStore.getState().nodes.filter((node) => node.data.node.type === kind).length;
  return count > 0 ? `${name} ${count + 1}` : name;
}

function refusal(kind: string): AddRefusal | null {
  const state = useEditorStore.getState();
  if (state.readOnly) return 'readOnly';
  if (!isPaletteKind(kind)) return 'unknown';
  if (kind === 'start' && state.nodes.some((node) => node.data.node.type === 'start')) return 'oneStart';
  return null;
}

/** The innermost container under a point of the canvas, with the point relative to it. */
function containerAt(flow: Flow, at: { x: number; y: number }) {
  let found: { id: string; x: number; y: number; area: number } | null = null;
  for (const node of useEditorStore.getState().nodes) {
    if (node.type !== 'container') continue;
    const internal = flow.getInternalNode(node.id);
    if (!internal) continue;
    const { x, y } = internal.internals.positionAbsolute;
    const width = internal.measured.width ?? node.width ?? 0;
    const height = internal.measured.height ?? node.height ?? 0;
    if (at.x < x || at.y < y || at.x > x + width || at.y > y + height) continue;
    if (!found || width * height < found.area) found = { id: node.id, x, y, area: width * height };
  }
  return found;
}

/** Adds a kind where it was dropped (inside a container if dropped on one). */
export function addKindAt(kind: string, at: { x: number; y: number }, flow: Flow, t: TFunction): AddRefusal | null {
  const refused = refusal(kind);
  if (refused || !isPaletteKind(kind)) return refused;
  const inside = kind === 'start' ? null : containerAt(flow, at);
  const taken = new Set(useEditorStore.getState().nodes.map((node) => node.id));
  const position = inside
    ? { x: Math.max(16, at.x - inside.x - NODE_WIDTH / 2), y: Math.max(56, at.y - inside.y - NODE_HEIGHT / 2) }
    : { x: at.x - NODE_WIDTH / 2, y: at.y - NODE_HEIGHT / 2 };
  addNode(createNode(kind, { id: newNodeId(kind, taken), title: titleFor(kind, t), position, parentId: inside?.id }));
  return null;
}

/**
 * Adds a kind to the right of the selected node, wired from its first outgoing handle; with
 * nothing selected, in the middle of the view.
 */
export function addKindAfterSelection(kind: string, flow: Flow, t: TFunction): AddRefusal | null {
  const refused = refusal(kind);
  if (refused || !isPaletteKind(kind)) return refused;
  const state = useEditorStore.getState();
  const selected = state.nodes.find((node) => node.id === state.selectedId);
  const taken = new Set(state.nodes.map((node) => node.id));
  const id = newNodeId(kind, taken);
  const title = titleFor(kind, t);
  if (!selected || kind === 'start') {
    const { innerWidth, innerHeight } = window;
    const at = flow.screenToFlowPosition({ x: innerWidth / 2, y: innerHeight / 2 });
    return addKindAt(kind, at, flow, t);
  }
  const width = selected.measured?.width ?? selected.width ?? NODE_WIDTH;
  const position = { x: selected.position.x + width + 80, y: selected.position.y };
  const handle = sourceHandlesOf(selected.data.node)[0];
  addNode(
    createNode(kind, { id, title, position, parentId: selected.parentId ?? null }),
    handle ? { source: selected.id, handle } : undefined,
  );
  return null;
}
