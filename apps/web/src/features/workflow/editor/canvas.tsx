import '@xyflow/react/dist/style.css';
import './editor.css';
import {
  Background,
  type Connection,
  Controls,
  type Edge,
  type FinalConnectionState,
  MiniMap,
  type Node,
  type OnSelectionChangeParams,
  ReactFlow,
  type ReactFlowState,
  useReactFlow,
  useStore,
  type Viewport,
} from '@xyflow/react';
import { App } from 'antd';
import { type DragEvent, useCallback, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EDGE_TYPES } from './deletable-edge.tsx';
import { connect, onEdgesChange, onNodesChange, refusalOf, selectNode, useEditorStore } from './editor-store.ts';
import type { FlowEdge, FlowNode } from './graph-flow.ts';
import { useHoveredEdge } from './hovered-edge.ts';
import { KIND_INFO } from './node-kinds.ts';
import { openingView } from './opening-view.ts';
import { addKindAt, PALETTE_DRAG_TYPE } from './palette-actions.ts';
import { NODE_TYPES } from './workflow-node.tsx';

const SNAP: [number, number] = [16, 16];
/** Nodes out of view may not be drawn, so fitting must count them by their declared size. */
export const FIT = { includeHiddenNodes: true, padding: 0.1 } as const;
const minimapColor = (node: Node) => KIND_INFO[(node as FlowNode).data.node.type].color;
const isValidConnection = (connection: Connection | Edge) => refusalOf(connection as Connection) === null;
const onSelectionChange = ({ nodes }: OnSelectionChangeParams) =>
  selectNode(nodes.length === 1 ? (nodes[0]?.id ?? null) : null);
const onEdgeMouseEnter = (_: unknown, edge: Edge) => useHoveredEdge.getState().enter(edge.id);
const onEdgeMouseLeave = (_: unknown, edge: Edge) => useHoveredEdge.getState().leave(edge.id);

/**
 * Below this zoom a node's 12 px text is under 4 px high, unreadable: the cards are drawn without
 * text or glyphs (editor.css, .wf-canvas-far), and all of them, so a pan mounts and unmounts
 * nothing (most are in view anyway). Drawing 700 nodes' text, and mounting the ones that came into
 * view, made panning a fitted 1 000-node graph miss frames (bench/workflow-canvas.ts).
 */
const FAR_ZOOM = 0.35;
const isFar = (state: ReactFlowState) => state.transform[2] < FAR_ZOOM;

/**
 * The canvas. Only nodes in view are drawn (all of them when zoomed far out), node components are
 * memoised per family, and every callback here is stable, so panning a thousand nodes re-renders
 * nothing but the viewport.
 */
export function Canvas() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const flow = useReactFlow<FlowNode, FlowEdge>();
  const nodes = useEditorStore((state) => state.nodes);
  const edges = useEditorStore((state) => state.edges);
  const readOnly = useEditorStore((state) => state.readOnly);
  // Changes only when the zoom crosses FAR_ZOOM, so panning re-renders nothing here.
  const far = useStore(isFar);
  // Where it opens depends on the canvas's size (opening-view.ts), measured before the first paint.
  const wrapper = useRef<HTMLDivElement>(null);
  const [opening, setOpening] = useState<Viewport | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the opening view is chosen once
  useLayoutEffect(() => {
    const rect = wrapper.current?.getBoundingClientRect();
    setOpening(openingView(nodes, { width: rect?.width || 800, height: rect?.height || 600 }));
  }, []);

  const onDragOver = useCallback((event: DragEvent) => {
    if (!event.dataTransfer.types.includes(PALETTE_DRAG_TYPE)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  }, []);

  const onDrop = useCallback(
    (event: DragEvent) => {
      const kind = event.dataTransfer.getData(PALETTE_DRAG_TYPE);
      if (!kind) return;
      event.preventDefault();
      const at = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
      if (addKindAt(kind, at, flow, t) === 'oneStart') void message.warning(t('workflowEditor.palette.oneStart'));
    },
    [flow, t, message],
  );

  // A refused connection says why, instead of silently not appearing.
  const onConnectEnd = useCallback(
    (_: MouseEvent | TouchEvent, state: FinalConnectionState) => {
      if (state.isValid !== false || !state.fromNode || !state.toNode || !state.fromHandle) return;
      const attempt =
        state.fromHandle.type === 'source'
          ? {
              source: state.fromNode.id,
              sourceHandle: state.fromHandle.id ?? 'out',
              target: state.toNode.id,
              targetHandle: 'in',
            }
          : {
              source: state.toNode.id,
              sourceHandle: state.toHandle?.id ?? 'out',
              target: state.fromNode.id,
              targetHandle: 'in',
            };
      const refusal = refusalOf(attempt);
      if (refusal) void message.warning(t(`workflowEditor.connection.${refusal}`));
    },
    [message, t],
  );

  return (
    <div
      ref={wrapper}
      style={{ width: '100%', height: '100%' }}
      className={[readOnly ? 'wf-readonly' : '', far ? 'wf-canvas-far' : ''].join(' ').trim() || undefined}
      data-testid="wf-canvas"
    >
      {opening === null ? null : (
        <ReactFlow<FlowNode, FlowEdge>
          nodes={nodes}
          edges={edges}
          nodeTypes={NODE_TYPES}
          edgeTypes={EDGE_TYPES}
          onNodesChange={onNodesChange}
          onEdgesChange={onEdgesChange}
          onConnect={connect}
          onConnectEnd={onConnectEnd}
          isValidConnection={isValidConnection}
          onSelectionChange={onSelectionChange}
          onEdgeMouseEnter={onEdgeMouseEnter}
          onEdgeMouseLeave={onEdgeMouseLeave}
          onDragOver={onDragOver}
          onDrop={onDrop}
          onlyRenderVisibleElements={!far}
          snapToGrid
          snapGrid={SNAP}
          deleteKeyCode={null}
          nodesDraggable={!readOnly}
          nodesConnectable={!readOnly}
          edgesFocusable={!readOnly}
          minZoom={0.05}
          maxZoom={2}
          defaultViewport={opening}
          proOptions={{ hideAttribution: true }}
        >
          <Background gap={SNAP[0]} />
          <Controls showInteractive={false} fitViewOptions={FIT} />
          <MiniMap pannable zoomable nodeColor={minimapColor} />
        </ReactFlow>
      )}
    </div>
  );
}
