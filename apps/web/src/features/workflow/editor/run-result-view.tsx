import { LoadingOutlined } from '@ant-design/icons';
import { Alert, Collapse, Descriptions, Flex, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorText } from '../../../lib/api-client.ts';
import { currentLocale } from '../../../lib/i18n.ts';
import { buildHref } from '../../../lib/navigation.ts';
import { formatDuration, NODE_STATUS_COLOR } from '../run-result.ts';
import { RunResultTag } from '../state-tags.tsx';
import { answerOf, type LiveNode } from './live-run.ts';
import { PayloadView, RunErrorView } from './payload-view.tsx';
import type { TestRunState } from './use-test-run.ts';

/** Time since the run was asked for, ticking while it runs; the summary's own figure once finished. */
function useElapsed(startedAt: number | null, finishedMs: number | null) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (finishedMs !== null || startedAt === null) return;
    const timer = setInterval(() => setNow(Date.now()), 200);
    return () => clearInterval(timer);
  }, [startedAt, finishedMs]);
  if (finishedMs !== null) return finishedMs;
  return startedAt === null ? null : Math.max(0, now - startedAt);
}

function NodeLabel({ node }: { node: LiveNode }) {
  const { t } = useTranslation();
  return (
    <Flex gap={8} align="center" wrap style={{ minWidth: 0, paddingInlineStart: node.depth * 16 }}>
      <Typography.Text strong>{node.title || node.node_id}</Typography.Text>
      <Tag
        color={NODE_STATUS_COLOR[node.status]}
        icon={node.status === 'running' ? <LoadingOutlined /> : undefined}
        style={{ marginInlineEnd: 0 }}
        data-testid="wf-run-node-status"
        data-status={node.status}
      >
        {t(`workflowEditor.status.${node.status}`)}
      </Tag>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {node.elapsed_ms === null ? '' : formatDuration(node.elapsed_ms)}
        {node.tokens ? ` · ${t('workflowEditor.run.tokensCount', { count: node.tokens })}` : ''}
      </Typography.Text>
    </Flex>
  );
}

/** Each node execution; opening one shows what it read, what it produced and its error. */
function NodeList({ nodes }: { nodes: LiveNode[] }) {
  const { t } = useTranslation();
  if (nodes.length === 0) return null;
  return (
    <Flex vertical gap={6}>
      <Typography.Text strong>{t('workflowEditor.run.nodes', { count: nodes.length })}</Typography.Text>
      <Collapse
        size="small"
        data-testid="wf-run-nodes"
        items={nodes.map((node) => ({
          key: node.execution_id,
          label: <NodeLabel node={node} />,
          extra: undefined,
          children: (
            <Flex vertical gap={8} data-testid={`wf-run-node-${node.node_id}`}>
              {node.error ? <RunErrorView error={node.error} testId="wf-run-node-error" /> : null}
              <PayloadView label={t('workflowEditor.run.nodeInputs')} value={node.inputs} />
              <PayloadView
                label={t('workflowEditor.run.nodeOutputs')}
                value={node.outputs}
                testId="wf-run-node-outputs"
              />
            </Flex>
          ),
        }))}
      />
    </Flex>
  );
}

/** The live run: its state, answer, outputs, figures and nodes. */
export function RunResultView({ state, workflowId }: { state: TestRunState; workflowId: string }) {
  const { t } = useTranslation();
  const { run, phase } = state;
  const summary = run.summary;
  const elapsed = useElapsed(state.startedAt, summary ? summary.elapsed_ms : phase === 'refused' ? 0 : null);
  if (phase === 'idle') return null;
  if (phase === 'refused') {
    return (
      <Alert
        type="error"
        showIcon
        data-testid="wf-run-refused"
        title={t('workflowEditor.run.refused')}
        description={errorText(state.error, currentLocale())}
      />
    );
  }
  const answer = answerOf(run);
  const tokens = summary?.tokens ?? run.nodes.reduce((sum, node) => sum + node.tokens, 0);
  return (
    <Flex vertical gap={12} data-testid="wf-run-result" data-phase={phase}>
      <Flex align="center" gap={8} wrap>
        {summary ? (
          <RunResultTag result={summary.result} testId="wf-run-result-tag" />
        ) : (
          <Tag icon={<LoadingOutlined />} color="processing" style={{ marginInlineEnd: 0 }}>
            {t(
              `workflowEditor.run.phase.${phase === 'reconnecting' ? 'reconnecting' : phase === 'running' ? 'running' : 'starting'}`,
            )}
          </Tag>
        )}
        {run.runId ? (
          <Link
            to={buildHref('workflowRuns', { params: { workflowId }, query: { run: run.runId } })}
            data-testid="wf-run-history"
          >
            {t('workflowEditor.run.history')}
          </Link>
        ) : null}
      </Flex>
      <Descriptions
        size="small"
        column={3}
        items={[
          {
            key: 'elapsed',
            label: t('workflowEditor.run.elapsed'),
            children: elapsed === null ? '–' : formatDuration(elapsed),
          },
          {
            key: 'tokens',
            label: t('workflowEditor.run.tokens'),
            children: <span data-testid="wf-run-tokens">{tokens}</span>,
          },
          { key: 'steps', label: t('workflowEditor.run.steps'), children: summary?.steps ?? run.nodes.length },
        ]}
      />
      {phase === 'lost' ? <Alert type="warning" showIcon title={t('workflowEditor.run.phase.lost')} /> : null}
      {run.problem ? <Alert type="error" showIcon title={run.problem.msg} data-code={run.problem.code} /> : null}
      {summary?.failure ? (
        <RunErrorView error={summary.failure.error} title={t('workflowEditor.run.failure')} testId="wf-run-failure" />
      ) : null}
      {answer ? <PayloadView label={t('workflowEditor.run.answer')} value={answer} testId="wf-run-answer" /> : null}
      {summary ? (
        <PayloadView label={t('workflowEditor.run.outputs')} value={summary.outputs} testId="wf-run-outputs" />
      ) : null}
      <NodeList nodes={run.nodes} />
    </Flex>
  );
}
