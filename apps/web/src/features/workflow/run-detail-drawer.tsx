import type { NodeRun, RunError, WorkflowRun } from '@athena/contract';
import { Alert, Collapse, Descriptions, Drawer, Empty, Flex, Skeleton, Tag, Typography, theme } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { formatDuration, groupNodeRuns, NODE_STATUS_COLOR, type NodeEntry, TRIGGER_KEYS } from './run-result.ts';
import { RunResultTag } from './state-tags.tsx';
import { useRunDetail } from './workflow-queries.ts';

/** A payload as readable JSON; long ones scroll inside their box. */
function Payload({ label, value, testId }: { label: string; value: unknown; testId: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const empty = value === null || value === undefined || (typeof value === 'object' && Object.keys(value).length === 0);
  return (
    <Flex vertical gap={4} data-testid={testId}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {label}
      </Typography.Text>
      {empty ? (
        <Typography.Text type="secondary">{t('workflows.run.none')}</Typography.Text>
      ) : (
        <pre
          style={{
            margin: 0,
            padding: 8,
            maxHeight: 240,
            overflow: 'auto',
            background: token.colorFillQuaternary,
            borderRadius: 6,
            fontSize: 12,
            whiteSpace: 'pre-wrap',
            wordBreak: 'break-word',
          }}
        >
          {typeof value === 'string' ? value : JSON.stringify(value, null, 2)}
        </pre>
      )}
    </Flex>
  );
}

/** The catalogue's message in the reader's language, with the technical detail under it. */
function ErrorBox({ error, title }: { error: RunError; title?: string }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      data-testid="workflow-run-error"
      data-code={error.code}
      title={title ? `${title}: ${error.msg}` : error.msg}
      description={
        // Some messages already carry the detail; it is not repeated then.
        error.detail && !error.msg.includes(error.detail) ? (
          <Typography.Text style={{ fontSize: 12, whiteSpace: 'pre-wrap' }}>
            {t('workflows.run.errorDetail', { detail: error.detail })}
          </Typography.Text>
        ) : undefined
      }
    />
  );
}

function NodeHeader({ node, rounds }: { node: NodeRun; rounds: number }) {
  const { t, i18n } = useTranslation();
  // The node's kind as the palette names it; a kind this version does not know, as stored.
  const kindKey = `workflowEditor.kinds.${node.node_type}.name`;
  return (
    <Flex gap={8} align="center" wrap style={{ minWidth: 0 }}>
      <Typography.Text strong>{node.title || node.node_id}</Typography.Text>
      <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="workflow-node-kind">
        {i18n.exists(kindKey) ? t(kindKey as 'workflowEditor.kinds.start.name') : node.node_type}
      </Typography.Text>
      <Tag color={NODE_STATUS_COLOR[node.status]} style={{ marginInlineEnd: 0 }} data-testid="workflow-node-status">
        {t(`workflows.nodeStatus.${node.status}`)}
      </Tag>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {formatDuration(node.elapsed_ms)}
        {node.tokens ? ` · ${t('workflowEditor.run.tokensCount', { count: node.tokens })}` : ''}
        {node.attempts > 1 ? ` · ${t('workflows.run.attempts', { count: node.attempts })}` : ''}
        {rounds ? ` · ${t('workflows.run.rounds', { count: rounds })}` : ''}
      </Typography.Text>
    </Flex>
  );
}

function NodeList({ entries }: { entries: NodeEntry[] }) {
  const { t } = useTranslation();
  return (
    <Collapse
      size="small"
      items={entries.map(({ node, rounds }) => ({
        key: node.execution_id,
        label: <NodeHeader node={node} rounds={rounds.length} />,
        children: (
          <Flex vertical gap={12} data-testid="workflow-node-detail">
            {node.error ? <ErrorBox error={node.error} /> : null}
            <Payload label={t('workflows.run.inputs')} value={node.inputs} testId="workflow-node-inputs" />
            <Payload label={t('workflows.run.outputs')} value={node.outputs} testId="workflow-node-outputs" />
            {rounds.length ? (
              <Collapse
                size="small"
                items={rounds.map((round) => ({
                  key: String(round.index),
                  label: t('workflows.run.round', { index: round.index + 1 }),
                  children: <NodeList entries={round.entries} />,
                }))}
              />
            ) : null}
          </Flex>
        ),
        extra: null,
      }))}
      data-testid="workflow-node-list"
    />
  );
}

function RunFacts({ run }: { run: WorkflowRun }) {
  const { t } = useTranslation();
  return (
    <Descriptions size="small" column={2} bordered data-testid="workflow-run-facts">
      <Descriptions.Item label={t('workflows.run.status')}>
        {run.status === 'finished' ? (
          <RunResultTag result={run.result} />
        ) : (
          <Tag color="processing">{t(`workflows.runs.${run.status}`)}</Tag>
        )}
      </Descriptions.Item>
      <Descriptions.Item label={t('workflows.runs.trigger')}>{t(TRIGGER_KEYS[run.trigger])}</Descriptions.Item>
      <Descriptions.Item label={t('workflows.run.startedAt')}>
        {dayjs(run.created_at).format('YYYY-MM-DD HH:mm:ss')}
      </Descriptions.Item>
      <Descriptions.Item label={t('workflows.run.finishedAt')}>
        {run.finished_at ? dayjs(run.finished_at).format('YYYY-MM-DD HH:mm:ss') : '–'}
      </Descriptions.Item>
      <Descriptions.Item label={t('workflows.run.duration')}>{formatDuration(run.elapsed_ms)}</Descriptions.Item>
      <Descriptions.Item label={t('workflows.run.tokens')}>{run.tokens}</Descriptions.Item>
      <Descriptions.Item label={t('workflows.run.steps')}>{run.steps}</Descriptions.Item>
      {run.failure_reason ? (
        <Descriptions.Item label={t('workflows.run.failure')}>
          {t(`workflows.failure.${run.failure_reason}`)}
        </Descriptions.Item>
      ) : null}
    </Descriptions>
  );
}

/** One run: its facts, inputs and outputs, then every node execution in order, iterations by round. */
export function RunDetailDrawer({
  spaceId,
  runId,
  onClose,
}: {
  spaceId: string;
  runId: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const detail = useRunDetail(spaceId, runId);
  const data = detail.data;
  let body: React.ReactNode;
  if (detail.isError) {
    body = (
      <Alert
        type="error"
        showIcon
        title={t('workflows.run.loadFailed')}
        description={errorText(detail.error, currentLocale())}
      />
    );
  } else if (!data) body = <Skeleton active paragraph={{ rows: 8 }} />;
  else {
    const entries = groupNodeRuns(data.nodes);
    body = (
      <Flex vertical gap={16}>
        <RunFacts run={data.run} />
        {data.run.error ? <ErrorBox error={data.run.error} title={t('workflows.run.error')} /> : null}
        <Payload label={t('workflows.run.inputs')} value={data.run.inputs} testId="workflow-run-inputs" />
        <Payload label={t('workflows.run.outputs')} value={data.run.outputs} testId="workflow-run-outputs" />
        {data.run.answer ? (
          <Payload label={t('workflows.run.answer')} value={data.run.answer} testId="workflow-run-answer" />
        ) : null}
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('workflows.run.nodes', { count: data.nodes.length })}
        </Typography.Title>
        {entries.length ? <NodeList entries={entries} /> : <Empty description={t('workflows.run.noNodes')} />}
      </Flex>
    );
  }
  return (
    <Drawer
      open={runId !== null}
      onClose={onClose}
      title={t('workflows.run.title')}
      size={720}
      destroyOnHidden
      data-testid="workflow-run-drawer"
    >
      <div data-testid="workflow-run-detail">{body}</div>
    </Drawer>
  );
}
