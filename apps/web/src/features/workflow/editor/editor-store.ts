import type { NodeRunStatus, WorkflowGraph, WorkflowNode } from '@athena/contract';
import { applyEdgeChanges, applyNodeChanges, type Connection, type EdgeChange, type NodeChange } from '@xyflow/react';
import { create } from 'zustand';
import { type Clip, copyNodes, pasteClip } from './clipboard.ts';
import { type ConnectionRefusal, connectionRefusal, type RuleNode } from './connection-rules.ts';
import {
  containerSize,
  edgeId,
  type FlowEdge,
  type FlowNode,
  flowToGraph,
  graphToFlow,
  toFlowEdge,
  toFlowNode,
} from './graph-flow.ts';
import { History } from './history.ts';
import type { InsertPlan } from './insert-after.ts';
import type { Placement } from './layout.ts';
import { isContainer, sourceHandlesOf } from './node-kinds.ts';

// The canvas's one store. React Flow reads nodes and edges from it; each node component reads only
// its own slice (its problem flag, its run status), so an edit re-renders the node it touched.

/** What a node's badge shows of its latest execution in a run; elapsed is null while it runs. */
export interface NodeBadge {
  status: NodeRunStatus;
  elapsed_ms: number | null;
  tokens: number;
}

interface Snapshot {
  nodes: FlowNode[];
  edges: FlowEdge[];
}

export interface EditorState extends Snapshot {
  readOnly: boolean;
  /** Counts document changes (not selection or measuring): autosave and validation follow it. */
  version: number;
  /** The node whose settings the side panel shows. */
  selectedId: string | null;
  problemIds: ReadonlySet<string>;
  /** A run's node statuses, drawn as a badge on each node (filled by the run panel). */
  runStatus: Readonly<Record<string, NodeBadge>>;
  canUndo: boolean;
  canRedo: boolean;
  rest: Pick<WorkflowGraph, 'environment' | 'settings'>;
}

const history = new History<Snapshot>(100);
let clip: Clip | null = null;
let pasteCount = 0;
let dragging = false;

export const useEditorStore = create<EditorState>()(() => ({
  nodes: [],
  edges: [],
  readOnly: true,
  version: 0,
  selectedId: null,
  problemIds: new Set(),
  runStatus: {},
  canUndo: false,
  canRedo: false,
  rest: { environment: [], settings: { max_steps: 500, max_run_ms: 600_000 } },
}));

const { getState: get, setState: set } = useEditorStore;

/** The document as it stands, for saving and validation. */
export function currentGraph(): WorkflowGraph {
  const { nodes, edges, rest } = get();
  return { ...flowToGraph(nodes, edges), ...rest };
}

export function loadGraph(graph: WorkflowGraph, readOnly: boolean) {
  history.clear();
  clip = null;
  const { nodes, edges } = graphToFlow(graph);
  set({
    nodes,
    edges,
    readOnly,
    rest: { environment: graph.environment, settings: graph.settings },
    version: 0,
    selectedId: null,
    problemIds: new Set(),
    runStatus: {},
    canUndo: false,
    canRedo: false,
  });
}

export const setReadOnly = (readOnly: boolean) => set({ readOnly });
export const setProblemIds = (ids: ReadonlySet<string>) => set({ problemIds: ids });
export const selectNode = (id: string | null) => set({ selectedId: id });

/** Takes a snapshot for undo, then applies a document change. */
function change(next: Partial<Snapshot>, mergeKey: string | null = null) {
  const state = get();
  if (state.readOnly) return;
  history.record({ nodes: state.nodes, edges: state.edges }, mergeKey);
  set({ ...next, version: state.version + 1, canUndo: true, canRedo: false });
}

export function onNodesChange(changes: NodeChange<FlowNode>[]) {
  const state = get();
  // Removal goes through removeSelection (history, bodies, edges); measuring and selecting are
  // not document changes.
  const kept = changes.filter((item) => item.type !== 'remove' && (!state.readOnly || item.type !== 'position'));
  if (kept.length === 0) return;
  const moves = kept.filter((item) => item.type === 'position');
  if (moves.some((item) => item.type === 'position' && item.dragging) && !dragging) {
    dragging = true;
    history.record({ nodes: state.nodes, edges: state.edges });
  }
  const nodes = applyNodeChanges(kept, state.nodes);
  const dropped = moves.some((item) => item.type === 'position' && !item.dragging);
  if (dropped) dragging = false;
  set({
    nodes,
    ...(dropped ? { version: state.version + 1, canUndo: true, canRedo: false } : {}),
  });
}

export function onEdgesChange(changes: EdgeChange<FlowEdge>[]) {
  const kept = changes.filter((item) => item.type === 'select');
  if (kept.length > 0) set({ edges: applyEdgeChanges(kept, get().edges) });
}

export function ruleNodes(nodes: readonly FlowNode[]): Map<string, RuleNode> {
  return new Map(nodes.map((node) => [node.id, { type: node.data.node.type, parent_id: node.parentId ?? null }]));
}

export function refusalOf(connection: Connection | FlowEdge): ConnectionRefusal | null {
  const { nodes, edges } = get();
  return connectionRefusal(ruleNodes(nodes), edges, connection);
}

export function connect(connection: Connection) {
  if (refusalOf(connection)) return;
  const edge = toFlowEdge({
    id: edgeId({
      source: connection.source,
      source_handle: connection.sourceHandle ?? 'out',
      target: connection.target,
    }),
    source: connection.source,
    source_handle: connection.sourceHandle ?? 'out',
    target: connection.target,
  });
  change({ edges: [...get().edges, edge] });
}

export function removeEdge(id: string) {
  change({ edges: get().edges.filter((edge) => edge.id !== id) });
}

/**
 * Adds a node (optionally wired from another's handle) and selects it. With a plan (a palette
 * click after the selected node), nodes it names move to make room, and the new node goes between
 * the handle and its successor: one change, one undo step.
 */
export function addNode(node: WorkflowNode, from?: { source: string; handle: string }, plan?: InsertPlan) {
  const state = get();
  const nodes = state.nodes.map((item) => {
    const to = plan?.moved.get(item.id);
    const base = item.selected ? { ...item, selected: false } : item;
    return to ? { ...base, position: to } : base;
  });
  const flow = { ...toFlowNode(node, isContainer(node.type) ? containerSize([]) : undefined), selected: true };
  nodes.push(flow);
  let edges = state.edges;
  const wires = from ? [{ source: from.source, source_handle: from.handle, target: node.id }] : [];
  if (from && plan?.next) {
    edges = edges.filter((edge) => edge.id !== plan.next?.edgeId);
    wires.push({ source: node.id, source_handle: 'out', target: plan.next.id });
  }
  for (const wire of wires) {
    const attempt = { source: wire.source, sourceHandle: wire.source_handle, target: wire.target };
    if (!connectionRefusal(ruleNodes(nodes), edges, attempt)) {
      edges = [...edges, toFlowEdge({ ...wire, id: edgeId(wire) })];
    }
  }
  change({ nodes, edges });
  set({ selectedId: node.id });
}

/**
 * Replaces a node's document (title, data, error handling). Edges from handles the node no longer
 * has (a removed case or class, a fail branch turned off) go with them.
 */
export function updateNode(next: WorkflowNode, mergeKey: string) {
  const state = get();
  const handles = new Set(sourceHandlesOf(next));
  if (isContainer(next.type)) handles.add('body');
  const edges = state.edges.filter((edge) => edge.source !== next.id || handles.has(edge.sourceHandle ?? 'out'));
  const nodes = state.nodes.map((item) => (item.id === next.id ? { ...item, data: { node: next } } : item));
  change({ nodes, ...(edges.length !== state.edges.length ? { edges } : {}) }, `${next.id}:${mergeKey}`);
}

/** The ids of the given nodes and of everything inside them. */
function withBodies(nodes: readonly FlowNode[], ids: Set<string>): Set<string> {
  for (let grew = true; grew; ) {
    grew = false;
    for (const node of nodes) {
      if (node.parentId && ids.has(node.parentId) && !ids.has(node.id)) {
        ids.add(node.id);
        grew = true;
      }
    }
  }
  return ids;
}

export function removeSelection() {
  const state = get();
  const chosen = state.nodes.filter((node) => node.selected && node.data.node.type !== 'start').map((node) => node.id);
  const gone = withBodies(state.nodes, new Set(chosen));
  const edges = state.edges.filter((edge) => !edge.selected && !gone.has(edge.source) && !gone.has(edge.target));
  if (gone.size === 0 && edges.length === state.edges.length) return;
  change({ nodes: state.nodes.filter((node) => !gone.has(node.id)), edges });
  if (state.selectedId && gone.has(state.selectedId)) set({ selectedId: null });
}

export function undo() {
  const state = get();
  const previous = history.undo({ nodes: state.nodes, edges: state.edges });
  if (previous && !state.readOnly) {
    set({ ...previous, version: state.version + 1, canUndo: history.canUndo, canRedo: history.canRedo });
  }
}

export function redo() {
  const state = get();
  const next = history.redo({ nodes: state.nodes, edges: state.edges });
  if (next && !state.readOnly) {
    set({ ...next, version: state.version + 1, canUndo: history.canUndo, canRedo: history.canRedo });
  }
}

export function copySelection(): number {
  const { nodes, edges } = get();
  const selected = new Set(nodes.filter((node) => node.selected).map((node) => node.id));
  if (selected.size === 0) return 0;
  clip = copyNodes(flowToGraph(nodes, edges), selected);
  pasteCount = 0;
  return clip.nodes.length;
}

export function pasteClipboard(): number {
  const state = get();
  if (!clip || clip.nodes.length === 0) return 0;
  pasteCount += 1;
  const offset = { x: 40 * pasteCount, y: 40 * pasteCount };
  // Pasted body nodes whose container is not in the clip go back into that container, if it is still here.
  const containers = new Set(state.nodes.filter((node) => node.type === 'container').map((node) => node.id));
  const parent = clip.nodes.find((node) => !clip?.nodes.some((other) => other.id === node.parent_id))?.parent_id;
  const outer = parent && containers.has(parent) ? parent : null;
  const pasted = pasteClip(clip, new Set(state.nodes.map((node) => node.id)), offset, outer);
  const top = new Set(pasted.nodes.filter((node) => node.parent_id === outer).map((node) => node.id));
  const flow = graphToFlow(pasted);
  const nodes = [
    ...state.nodes.map((node) => (node.selected ? { ...node, selected: false } : node)),
    ...flow.nodes.map((node) =>
      outer && top.has(node.id)
        ? { ...node, parentId: outer, extent: 'parent' as const, expandParent: true, selected: true }
        : { ...node, selected: true },
    ),
  ];
  change({ nodes, edges: [...state.edges, ...flow.edges] });
  return pasted.nodes.length;
}

export function applyPlacements(placements: ReadonlyMap<string, Placement>) {
  const nodes = get().nodes.map((node) => {
    const placed = placements.get(node.id);
    if (!placed) return node;
    const sized = placed.size
      ? { style: { ...node.style, ...placed.size }, width: placed.size.width, height: placed.size.height }
      : {};
    return { ...node, position: placed.position, ...sized };
  });
  change({ nodes });
}

/** Selects one node on the canvas (from the problems list), leaving the rest unselected. */
export function focusNode(id: string) {
  const nodes = get().nodes.map((node) =>
    node.id === id ? { ...node, selected: true } : node.selected ? { ...node, selected: false } : node,
  );
  set({ nodes, selectedId: id });
}

export const setRunStatus = (runStatus: Readonly<Record<string, NodeBadge>>) => set({ runStatus });

/**
 * Replaces the workflow's environment variables or run limits: a document change (autosaved),
 * but not one undo steps back through, since it is made in its own drawer and not on the canvas.
 */
export function updateRest(patch: Partial<EditorState['rest']>) {
  const state = get();
  if (state.readOnly) return;
  set({ rest: { ...state.rest, ...patch }, version: state.version + 1 });
}
