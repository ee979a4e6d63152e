import type { WorkflowNodeType } from '@athena/contract';
import type { ReactFlowInstance } from '@xyflow/react';
import type { TFunction } from 'i18next';
import { addNode, useEditorStore } from './editor-store.ts';
import { type FlowEdge, type FlowNode, NODE_HEIGHT, NODE_WIDTH } from './graph-flow.ts';
import { planInsertAfter } from './insert-after.ts';
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
    const pane = canvasRect();
    const middle = pane
      ? { x: pane.left + pane.width / 2, y: pane.top + pane.height / 2 }
      : { x: window.innerWidth / 2, y: window.innerHeight / 2 };
    const at = flow.screenToFlowPosition(middle);
    return addKindAt(kind, at, flow, t);
  }
  const handle = sourceHandlesOf(selected.data.node)[0];
  const node = createNode(kind, { id, title, position: { x: 0, y: 0 }, parentId: selected.parentId ?? null });
  const plan = planInsertAfter(state.nodes, state.edges, selected, handle ?? 'out', sourceHandlesOf(node)[0] === 'out');
  addNode({ ...node, position: plan.position }, handle ? { source: selected.id, handle } : undefined, plan);
  followAdded(flow, plan.next ? [id, plan.next.id] : [id]);
  return null;
}

const canvasRect = () => document.querySelector('[data-testid="wf-canvas"]')?.getBoundingClientRect();

/**
 * The view follows a node added by a click when it, or the node it was wired to next, landed out of
 * sight (after the last node of a chain, say), keeping the zoom: the person sees what they added
 * and where the chain goes on.
 */
function followAdded(flow: Flow, ids: readonly string[]) {
  requestAnimationFrame(() => {
    const pane = canvasRect();
    const boxes = ids.flatMap((id) => {
      const node = flow.getInternalNode(id);
      if (!node) return [];
      const { x, y } = node.internals.positionAbsolute;
      return [
        { x, y, right: x + (node.measured.width ?? NODE_WIDTH), bottom: y + (node.measured.height ?? NODE_HEIGHT) },
      ];
    });
    if (!pane || boxes.length === 0) return;
    const onScreen = (box: (typeof boxes)[number]) => {
      const from = flow.flowToScreenPosition({ x: box.x, y: box.y });
      const to = flow.flowToScreenPosition({ x: box.right, y: box.bottom });
      return from.x >= pane.left && from.y >= pane.top && to.x <= pane.right && to.y <= pane.bottom;
    };
    if (boxes.every(onScreen)) return;
    const zoom = flow.getZoom();
    const all = {
      x: Math.min(...boxes.map((box) => box.x)),
      y: Math.min(...boxes.map((box) => box.y)),
      right: Math.max(...boxes.map((box) => box.right)),
      bottom: Math.max(...boxes.map((box) => box.bottom)),
    };
    // Both fit at this zoom: centre them; otherwise centre the new node.
    const fits = (all.right - all.x) * zoom < pane.width - 80 && (all.bottom - all.y) * zoom < pane.height - 80;
    const target = fits ? all : boxes[0];
    void flow.setCenter((target.x + target.right) / 2, (target.y + target.bottom) / 2, { zoom, duration: 250 });
  });
}
