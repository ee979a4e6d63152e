import { CaretRightOutlined } from '@ant-design/icons';
import { type RouteData, type WorkflowNode, workflowRunRoutes } from '@athena/contract';
import { Alert, Button, Descriptions, Flex, Form, Input, Modal, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/api-client.ts';
import { currentLocale } from '../../../lib/i18n.ts';
import { useApiMutation } from '../../../shared/hooks/use-api-mutation.ts';
import { formatDuration, NODE_STATUS_COLOR } from '../run-result.ts';
import { currentGraph } from './editor-store.ts';
import { handGivenValue, wantedValues } from './node-run-values.ts';
import { PayloadView, RunErrorView } from './payload-view.tsx';

type Result = RouteData<typeof workflowRunRoutes.nodeRun>;

function NodeRunResult({ result }: { result: Result }) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={8} data-testid="wf-node-run-result" data-status={result.status}>
      <Flex gap={8} align="center" wrap>
        <Tag color={NODE_STATUS_COLOR[result.status]} style={{ marginInlineEnd: 0 }}>
          {t(`workflowEditor.status.${result.status}`)}
        </Tag>
        {result.branch && result.branch !== 'out' ? (
          <Typography.Text type="secondary">
            {t('workflowEditor.nodeRun.branch', { branch: result.branch })}
          </Typography.Text>
        ) : null}
      </Flex>
      <Descriptions
        size="small"
        column={2}
        items={[
          { key: 'elapsed', label: t('workflowEditor.run.elapsed'), children: formatDuration(result.elapsed_ms) },
          { key: 'tokens', label: t('workflowEditor.run.tokens'), children: result.tokens },
        ]}
      />
      {result.error ? <RunErrorView error={result.error} testId="wf-node-run-error" /> : null}
      <PayloadView label={t('workflowEditor.run.nodeOutputs')} value={result.outputs} testId="wf-node-run-outputs" />
      <PayloadView label={t('workflowEditor.run.nodeInputs')} value={result.inputs} />
    </Flex>
  );
}

/** "Run this node": asks for the values the node reads, runs it alone on the saved draft. */
export function NodeRunButton({
  node,
  workflowId,
  flush,
}: {
  node: WorkflowNode;
  workflowId: string;
  flush: () => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [notSaved, setNotSaved] = useState(false);
  const run = useApiMutation(workflowRunRoutes.nodeRun, { meta: { errorNotice: false } });
  const wanted = useMemo(() => {
    if (!open) return [];
    const nodes = new Map(currentGraph().nodes.map((item) => [item.id, item.title || item.id]));
    return wantedValues(node, (id) => nodes.get(id) ?? id);
  }, [open, node]);

  const submit = async () => {
    setNotSaved(false);
    run.reset();
    if (!(await flush())) {
      setNotSaved(true);
      return;
    }
    const values = Object.fromEntries(wanted.map((item) => [item.key, handGivenValue(texts[item.key] ?? '')]));
    await run.mutateAsync({ workflow_id: workflowId, node_id: node.id, values }).catch(() => {});
  };

  return (
    <>
      <Button size="small" icon={<CaretRightOutlined />} onClick={() => setOpen(true)} data-testid="wf-node-run">
        {t('workflowEditor.nodeRun.button')}
      </Button>
      <Modal
        open={open}
        title={t('workflowEditor.nodeRun.title', { title: node.title || node.id })}
        onCancel={() => setOpen(false)}
        footer={null}
        width={560}
        destroyOnHidden
        afterClose={() => run.reset()}
        data-testid="wf-node-run-modal"
      >
        <Flex vertical gap={12}>
          <Typography.Text type="secondary">{t('workflowEditor.nodeRun.help')}</Typography.Text>
          <Form layout="vertical" size="small" component={false}>
            {wanted.length === 0 ? (
              <Typography.Text type="secondary">{t('workflowEditor.nodeRun.noReads')}</Typography.Text>
            ) : null}
            {wanted.map((item) => (
              <Form.Item key={item.key} label={item.label} tooltip={item.key} style={{ marginBottom: 8 }}>
                <Input.TextArea
                  value={texts[item.key] ?? ''}
                  autoSize={{ minRows: 1, maxRows: 6 }}
                  onChange={(e) => setTexts((current) => ({ ...current, [item.key]: e.target.value }))}
                  data-testid={`wf-node-run-value-${item.key}`}
                />
              </Form.Item>
            ))}
            {wanted.length > 0 ? (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('workflowEditor.nodeRun.valueHint')}
              </Typography.Text>
            ) : null}
          </Form>
          <Button
            type="primary"
            icon={<CaretRightOutlined />}
            loading={run.isPending}
            onClick={() => void submit()}
            style={{ alignSelf: 'flex-start' }}
            data-testid="wf-node-run-start"
          >
            {t('workflowEditor.nodeRun.run')}
          </Button>
          {notSaved ? <Alert type="error" showIcon title={t('workflowEditor.run.notSaved')} /> : null}
          {run.isError ? (
            <Alert
              type="error"
              showIcon
              title={errorText(run.error, currentLocale())}
              data-testid="wf-node-run-refused"
            />
          ) : null}
          {run.data ? <NodeRunResult result={run.data} /> : null}
        </Flex>
      </Modal>
    </>
  );
}
