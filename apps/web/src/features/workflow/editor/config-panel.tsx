import { CloseOutlined } from '@ant-design/icons';
import type { WorkflowNode, WorkflowNodeType } from '@athena/contract';
import { Button, Flex, Form, Input, Typography } from 'antd';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { selectNode, updateNode, useEditorStore } from './editor-store.ts';
import { ErrorHandling } from './error-handling.tsx';
import { KIND_ICONS } from './node-icons.tsx';
import { KIND_INFO } from './node-kinds.ts';
import { NodeRunButton } from './node-run.tsx';
import { McpToolPanel } from './panel-mcp-tool.tsx';
import type { PanelProps } from './panel-types.ts';
import {
  AggregatorPanel,
  AnswerPanel,
  AssignerPanel,
  EndPanel,
  IfElsePanel,
  IterationPanel,
  ListOperatorPanel,
  LoopPanel,
  StartPanel,
} from './panels-flow.tsx';
import { ClassifierPanel, ExtractorPanel, LlmPanel } from './panels-model.tsx';
import {
  AgentPanel,
  CodePanel,
  HttpPanel,
  KnowledgePanel,
  SubWorkflowPanel,
  TemplatePanel,
  UnsupportedPanel,
} from './panels-tools.tsx';

const PANELS: { [T in WorkflowNodeType]: ComponentType<PanelProps<T>> } = {
  start: StartPanel,
  end: EndPanel,
  answer: AnswerPanel,
  llm: LlmPanel,
  knowledge: KnowledgePanel,
  classifier: ClassifierPanel,
  extractor: ExtractorPanel,
  if_else: IfElsePanel,
  template: TemplatePanel,
  code: CodePanel,
  http: HttpPanel,
  aggregator: AggregatorPanel,
  assigner: AssignerPanel,
  list_operator: ListOperatorPanel,
  iteration: IterationPanel,
  loop: LoopPanel,
  agent: AgentPanel,
  sub_workflow: SubWorkflowPanel,
  mcp_tool: McpToolPanel,
  unsupported: UnsupportedPanel,
};

/** The selected node's settings: title and description, its kind's fields, error handling. Keyed by node id where it is used, so local state (a JSON being typed) never carries over to another node. */
export function ConfigPanel({
  nodeId,
  spaceId,
  workflowId,
  flush,
}: {
  nodeId: string;
  spaceId: string;
  workflowId: string;
  /** Saves the draft now: a single-node run runs the saved draft. */
  flush: () => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const node = useEditorStore((state) => state.nodes.find((item) => item.id === nodeId)?.data.node);
  const readOnly = useEditorStore((state) => state.readOnly);
  if (!node) return null;
  const Panel = PANELS[node.type] as ComponentType<PanelProps<WorkflowNodeType>>;
  const set = (patch: Partial<WorkflowNode['data']>, key: string) =>
    updateNode({ ...node, data: { ...node.data, ...patch } } as WorkflowNode, key);
  return (
    <Flex vertical style={{ height: '100%', minHeight: 0 }} data-testid="wf-config-panel" data-node-id={node.id}>
      <Flex align="center" gap={8} style={{ padding: '12px 16px', borderBottom: '1px solid #f0f0f0', flex: 'none' }}>
        <span className="wf-node-icon" style={{ background: KIND_INFO[node.type].color }}>
          {KIND_ICONS[node.type]}
        </span>
        <Flex vertical style={{ flex: 1, minWidth: 0 }}>
          <Typography.Text strong>{t(`workflowEditor.kinds.${node.type}.name`)}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }} ellipsis>
            {t(`workflowEditor.kinds.${node.type}.description`)}
          </Typography.Text>
        </Flex>
        <Button
          type="text"
          size="small"
          icon={<CloseOutlined />}
          aria-label={t('workflowEditor.panel.close')}
          onClick={() => selectNode(null)}
        />
      </Flex>
      <div style={{ flex: 1, overflowY: 'auto', padding: '12px 16px' }}>
        <Form layout="vertical" size="small" component={false} disabled={readOnly}>
          <Form.Item label={t('workflowEditor.panel.title')}>
            <Input
              value={node.title}
              maxLength={100}
              onChange={(event) => updateNode({ ...node, title: event.target.value }, 'title')}
              data-testid="wf-field-title"
            />
          </Form.Item>
          <Flex align="center" justify="space-between" gap={8} style={{ marginBottom: 12 }}>
            <Typography.Text type="secondary" style={{ fontSize: 12 }} copyable={{ text: node.id }} ellipsis>
              {t('workflowEditor.panel.id', { id: node.id })}
            </Typography.Text>
            {node.type === 'unsupported' ? null : <NodeRunButton node={node} workflowId={workflowId} flush={flush} />}
          </Flex>
          <Panel node={node} set={set} spaceId={spaceId} />
          {/* After the node's own fields: the first box a person types into is the prompt, not a note. */}
          <Form.Item label={t('workflowEditor.panel.description')}>
            <Input.TextArea
              value={node.description}
              maxLength={1000}
              autoSize={{ minRows: 1, maxRows: 4 }}
              onChange={(event) => updateNode({ ...node, description: event.target.value }, 'description')}
              data-testid="wf-field-description"
            />
          </Form.Item>
          {node.type === 'unsupported' ? null : <ErrorHandling node={node} onChange={updateNode} />}
        </Form>
      </div>
    </Flex>
  );
}
