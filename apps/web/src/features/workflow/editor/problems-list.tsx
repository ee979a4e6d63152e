import { CheckCircleOutlined, WarningOutlined } from '@ant-design/icons';
import type { GraphProblem } from '@athena/workflow-engine';
import { useReactFlow } from '@xyflow/react';
import { Empty, Flex, List, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../lib/i18n.ts';
import { FIT } from './canvas.tsx';
import { focusNode, useEditorStore } from './editor-store.ts';
import type { FlowEdge, FlowNode } from './graph-flow.ts';
import { problemText } from './use-validation.ts';

/** What stands between the draft and publishing; a click takes the reader to the node. */
export function ProblemsList({ problems }: { problems: GraphProblem[] }) {
  const { t } = useTranslation();
  const flow = useReactFlow<FlowNode, FlowEdge>();
  const language = currentLocale();
  const go = (id: string) => {
    if (!useEditorStore.getState().nodes.some((node) => node.id === id)) return;
    focusNode(id);
    void flow.fitView({ ...FIT, nodes: [{ id }], duration: 300, maxZoom: 1.2 });
  };
  return (
    <Flex vertical style={{ height: '100%', minHeight: 0 }} data-testid="wf-problems">
      <Flex align="center" gap={8} style={{ padding: '12px 16px', borderBottom: '1px solid #f0f0f0' }}>
        {problems.length ? (
          <WarningOutlined style={{ color: '#faad14' }} />
        ) : (
          <CheckCircleOutlined style={{ color: '#52c41a' }} />
        )}
        <Typography.Text strong>{t('workflowEditor.problems.title', { count: problems.length })}</Typography.Text>
      </Flex>
      <div style={{ flex: 1, overflowY: 'auto' }}>
        {problems.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('workflowEditor.problems.none')} />
        ) : (
          <List
            size="small"
            dataSource={problems}
            renderItem={(problem, index) => (
              <List.Item
                key={`${problem.code}-${problem.node_id}-${index}`}
                style={{ cursor: problem.node_id ? 'pointer' : undefined, paddingInline: 16 }}
                onClick={() => problem.node_id && go(problem.node_id)}
                data-testid="wf-problem"
                data-node-id={problem.node_id ?? ''}
              >
                <Typography.Text type="danger">{problemText(problem, language)}</Typography.Text>
              </List.Item>
            )}
          />
        )}
      </div>
    </Flex>
  );
}
