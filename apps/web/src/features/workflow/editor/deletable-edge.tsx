import { CloseOutlined } from '@ant-design/icons';
import { BaseEdge, EdgeLabelRenderer, type EdgeProps, getBezierPath } from '@xyflow/react';
import { Button } from 'antd';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { removeEdge, useEditorStore } from './editor-store.ts';
import type { FlowEdge } from './graph-flow.ts';
import { useHoveredEdge } from './hovered-edge.ts';

function DeletableEdgeView(props: EdgeProps<FlowEdge>) {
  const { t } = useTranslation();
  const { id, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, selected, markerEnd, style } = props;
  const [path, labelX, labelY] = getBezierPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition });
  const readOnly = useEditorStore((state) => state.readOnly);
  const hovered = useHoveredEdge((state) => state.id === id);
  const failing = props.sourceHandleId === 'fail';
  return (
    <>
      <BaseEdge
        id={id}
        path={path}
        markerEnd={markerEnd}
        style={{
          ...style,
          stroke: selected ? '#1677ff' : failing ? '#ff7875' : undefined,
          strokeWidth: selected || hovered ? 2 : 1.5,
        }}
      />
      {!readOnly && (hovered || selected) ? (
        <EdgeLabelRenderer>
          <div
            className="wf-edge-remove nodrag nopan"
            style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
          >
            <Button
              size="small"
              shape="circle"
              danger
              icon={<CloseOutlined />}
              aria-label={t('workflowEditor.edge.remove')}
              data-testid={`wf-edge-remove-${id}`}
              onClick={() => removeEdge(id)}
              onMouseEnter={() => useHoveredEdge.getState().enter(id)}
              onMouseLeave={() => useHoveredEdge.getState().leave(id)}
            />
          </div>
        </EdgeLabelRenderer>
      ) : null}
    </>
  );
}

export const EDGE_TYPES = { deletable: memo(DeletableEdgeView) };
