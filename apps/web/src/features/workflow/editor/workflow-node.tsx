import { LoadingOutlined } from '@ant-design/icons';
import type { WorkflowNode } from '@athena/contract';
import { Handle, type NodeProps, Position, useUpdateNodeInternals } from '@xyflow/react';
import { Tag } from 'antd';
import { memo, useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDuration } from '../run-result.ts';
import { type NodeBadge, useEditorStore } from './editor-store.ts';
import type { FlowNode } from './graph-flow.ts';
import { handleLabel } from './handle-label.ts';
import { KIND_ICONS } from './node-icons.tsx';
import { KIND_INFO, sourceHandlesOf } from './node-kinds.ts';

const STATUS_COLORS = {
  running: 'processing',
  succeeded: 'success',
  failed: 'error',
  handled: 'warning',
  skipped: 'default',
} as const;

/** One line under the title: what the node is set to do, at a glance. */
function summaryOf(node: WorkflowNode): string {
  if (node.description) return node.description;
  switch (node.type) {
    case 'http':
      return `${node.data.method} ${node.data.url}`;
    case 'code':
      return node.data.language;
    case 'llm':
    case 'classifier':
    case 'extractor':
      return node.data.model;
    case 'unsupported':
      return node.data.original_type;
    default:
      return '';
  }
}

/** The node's state in the latest run: a spinner while it runs, then its outcome's colour. */
function StatusTag({ id, badge }: { id: string; badge: NodeBadge }) {
  const { t } = useTranslation();
  return (
    <Tag
      color={STATUS_COLORS[badge.status]}
      icon={badge.status === 'running' ? <LoadingOutlined /> : undefined}
      style={{ marginInlineEnd: 0 }}
      data-testid={`wf-node-status-${id}`}
      data-status={badge.status}
    >
      {t(`workflowEditor.status.${badge.status}`)}
    </Tag>
  );
}

function NodeCard({ id, data, selected, container }: NodeProps<FlowNode> & { container?: boolean }) {
  const { t } = useTranslation();
  const node = data.node;
  const info = KIND_INFO[node.type];
  const problem = useEditorStore((state) => state.problemIds.has(id));
  const status = useEditorStore((state) => state.runStatus[id]);
  const handles = useMemo(() => sourceHandlesOf(node), [node]);
  const updateInternals = useUpdateNodeInternals();
  const handleKey = handles.join('|');
  const drawnKey = useRef(handleKey);
  // React Flow measures handles when a node mounts; a case, class or fail branch added later must be
  // measured again. Never on mount: a thousand nodes asking at once would each redraw the canvas.
  useEffect(() => {
    if (drawnKey.current === handleKey) return;
    drawnKey.current = handleKey;
    updateInternals(id);
  }, [handleKey, id, updateInternals]);

  const single = handles.length === 1 && handles[0] === 'out';
  const summary = summaryOf(node);
  const classes = [
    'wf-node',
    selected && !container ? 'is-selected' : '',
    problem && !container ? 'has-problem' : '',
    status && !container ? `run-${status.status}` : '',
  ];
  return (
    <div className={classes.join(' ')} data-testid={`wf-node-${id}`} data-node-type={node.type}>
      <div className="wf-node-header">
        {info.family !== 'entry' ? <Handle type="target" position={Position.Left} id="in" /> : null}
        <span className="wf-node-icon" style={{ background: info.color }}>
          {KIND_ICONS[node.type]}
        </span>
        <span className="wf-node-title">{node.title || t(`workflowEditor.kinds.${node.type}.name`)}</span>
        {status ? <StatusTag id={id} badge={status} /> : null}
        {single ? <Handle type="source" position={Position.Right} id="out" /> : null}
      </div>
      {status && status.elapsed_ms !== null ? (
        <div className="wf-node-run" data-testid={`wf-node-metrics-${id}`}>
          {formatDuration(status.elapsed_ms)}
          {status.tokens ? ` · ${t('workflowEditor.run.tokensCount', { count: status.tokens })}` : ''}
        </div>
      ) : null}
      {summary && !container ? <div className="wf-node-summary">{summary}</div> : null}
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

function ContainerCard(props: NodeProps<FlowNode>) {
  const { t } = useTranslation();
  const problem = useEditorStore((state) => state.problemIds.has(props.id));
  const classes = ['wf-container', props.selected ? 'is-selected' : '', problem ? 'has-problem' : ''];
  return (
    <div className={classes.join(' ')}>
      <NodeCard {...props} container />
      <div className="wf-body-start">
        {t('workflowEditor.handles.body')}
        <Handle type="source" position={Position.Right} id="body" />
      </div>
    </div>
  );
}

const EntryNode = memo(NodeCard);
const ExitNode = memo(NodeCard);
const StepNode = memo(NodeCard);
const BranchNode = memo(NodeCard);
const ContainerNode = memo(ContainerCard);

/** React Flow's node types, one memoised component per family (never re-created). */
export const NODE_TYPES = {
  entry: EntryNode,
  exit: ExitNode,
  step: StepNode,
  branch: BranchNode,
  container: ContainerNode,
};
