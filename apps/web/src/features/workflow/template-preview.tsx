import '@xyflow/react/dist/style.css';
import './editor/editor.css';
import type { WorkflowGraph } from '@athena/contract';
import {
  Background,
  Controls,
  type Edge,
  Handle,
  type NodeProps,
  Position,
  ReactFlow,
  type Viewport,
} from '@xyflow/react';
import { memo, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type FlowNode, graphToFlow } from './editor/graph-flow.ts';
import { handleLabel } from './editor/handle-label.ts';
import { KIND_ICONS } from './editor/node-icons.tsx';
import { KIND_INFO, sourceHandlesOf } from './editor/node-kinds.ts';
import { openingViewport, thumbnailOf } from './template-geometry.ts';

// A template's graph, read-only, loaded only when a preview is shown (React Flow is its own chunk).
// The cards use the editor's classes (editor.css) and icons, but not its node components: those read
// the editor's store (problems, run states), which keeps the last workflow opened and would paint
// its highlights onto a template's nodes that share its ids.

/**
 * The preview opens on the whole graph, but never below this zoom, where a 13 px title is still
 * about 10 px high; a wider graph opens at its start with the rest a pan away (at 0.6, fitted
 * titles were too small to read in the dialog at 1280 px).
 */
const READABLE_ZOOM = 0.75;
/** The "fit" button shows the whole graph, however small. */
const FIT_ALL = { padding: 0.05 } as const;

function PreviewCard({ data }: NodeProps<FlowNode>) {
  const { t } = useTranslation();
  const node = data.node;
  const info = KIND_INFO[node.type];
  const handles = sourceHandlesOf(node);
  const single = handles.length === 1 && handles[0] === 'out';
  const title = node.title || t(`workflowEditor.kinds.${node.type}.name`);
  return (
    <div
      className="wf-node"
      data-testid="workflow-template-preview-node"
      data-node-id={node.id}
      data-node-type={node.type}
    >
      <div className="wf-node-header">
        {info.family !== 'entry' ? <Handle type="target" position={Position.Left} id="in" /> : null}
        <span className="wf-node-icon" style={{ background: info.color }}>
          {KIND_ICONS[node.type]}
        </span>
        <span className="wf-node-title" title={title}>
          {title}
        </span>
        {single ? <Handle type="source" position={Position.Right} id="out" /> : null}
      </div>
      {single
        ? null
        : handles.map((handle) => (
            <div key={handle} className={`wf-node-branch${handle === 'fail' ? ' is-fail' : ''}`}>
              {handleLabel(node, handle, t)}
              <Handle type="source" position={Position.Right} id={handle} />
            </div>
          ))}
    </div>
  );
}

function PreviewContainer(props: NodeProps<FlowNode>) {
  const { t } = useTranslation();
  return (
    <div className="wf-container">
      <PreviewCard {...props} />
      <div className="wf-body-start">
        {t('workflowEditor.handles.body')}
        <Handle type="source" position={Position.Right} id="body" />
      </div>
    </div>
  );
}

const Card = memo(PreviewCard);
const NODE_TYPES = { entry: Card, exit: Card, step: Card, branch: Card, container: memo(PreviewContainer) };

interface Props {
  graph: Pick<WorkflowGraph, 'nodes' | 'edges'>;
  height: number;
}

/** Pan and zoom only: nothing can be moved, selected, connected or deleted. */
export function TemplatePreview({ graph, height }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const [opening, setOpening] = useState<Viewport | null>(null);
  const flow = useMemo(() => {
    const { nodes, edges } = graphToFlow(graph);
    // Plain curves: the editor's edge type carries its remove button and its store.
    const plain: Edge[] = edges.map((edge) => ({
      ...edge,
      type: 'default',
      style: { strokeWidth: 1.5, stroke: edge.sourceHandle === 'fail' ? '#ff7875' : undefined },
    }));
    return { nodes, edges: plain, extent: thumbnailOf(graph).extent };
  }, [graph]);
  // The opening view is worked out from the declared sizes and the frame's width, before React
  // Flow mounts: no fitted frame first and a jump after, and a graph too wide is not centred with
  // both its ends cut off.
  useLayoutEffect(() => {
    const frame = box.current;
    if (frame) setOpening(openingViewport(flow.extent, frame.clientWidth, frame.clientHeight, READABLE_ZOOM));
  }, [flow.extent]);
  return (
    <div
      ref={box}
      className="wf-readonly"
      style={{ height, border: '1px solid var(--ant-color-border-secondary, #f0f0f0)', borderRadius: 8 }}
      data-testid="workflow-template-preview"
      data-node-count={flow.nodes.length}
      data-zoom={opening?.zoom.toFixed(2)}
    >
      {opening ? (
        <ReactFlow<FlowNode, Edge>
          nodes={flow.nodes}
          edges={flow.edges}
          nodeTypes={NODE_TYPES}
          nodesDraggable={false}
          nodesConnectable={false}
          nodesFocusable={false}
          edgesFocusable={false}
          elementsSelectable={false}
          deleteKeyCode={null}
          selectionKeyCode={null}
          multiSelectionKeyCode={null}
          zoomOnDoubleClick={false}
          minZoom={0.1}
          maxZoom={1.5}
          defaultViewport={opening}
          proOptions={{ hideAttribution: true }}
        >
          <Background gap={16} />
          <Controls showInteractive={false} fitViewOptions={FIT_ALL} />
        </ReactFlow>
      ) : null}
    </div>
  );
}
