import type { WorkflowNode } from '@athena/contract';
import { Flex, Form, Input, InputNumber, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Timeout, retries, and what happens when the node still fails; every kind has it. */
export function ErrorHandling({
  node,
  onChange,
}: {
  node: WorkflowNode;
  onChange: (next: WorkflowNode, key: string) => void;
}) {
  const { t } = useTranslation();
  const errors = node.errors;
  const put = (patch: Partial<WorkflowNode['errors']>, key: string) =>
    onChange({ ...node, errors: { ...errors, ...patch } }, key);
  const [text, setText] = useState(() => JSON.stringify(errors.default_outputs, null, 2));
  const [bad, setBad] = useState(false);
  return (
    <>
      <Typography.Title level={5} style={{ marginTop: 8 }}>
        {t('workflowEditor.errors.title')}
      </Typography.Title>
      <Form.Item label={t('workflowEditor.errors.timeout')} extra={t('workflowEditor.errors.timeoutHelp')}>
        <InputNumber
          min={100}
          max={600_000}
          step={1000}
          value={errors.timeout_ms}
          placeholder="120000"
          onChange={(value) => put({ timeout_ms: value ?? null }, 'timeout_ms')}
          style={{ width: '100%' }}
        />
      </Form.Item>
      <Form.Item label={t('workflowEditor.errors.retries')}>
        <Flex gap={8} align="center">
          <InputNumber
            min={0}
            max={10}
            value={errors.retry.max}
            onChange={(max) => put({ retry: { ...errors.retry, max: max ?? 0 } }, 'retry')}
          />
          <Typography.Text type="secondary">{t('workflowEditor.errors.interval')}</Typography.Text>
          <InputNumber
            min={0}
            max={60_000}
            step={500}
            value={errors.retry.interval_ms}
            onChange={(interval_ms) => put({ retry: { ...errors.retry, interval_ms: interval_ms ?? 0 } }, 'retry')}
          />
        </Flex>
      </Form.Item>
      <Form.Item label={t('workflowEditor.errors.onError')}>
        <Select
          value={errors.on_error}
          options={(['abort', 'default', 'fail_branch'] as const).map((mode) => ({
            value: mode,
            label: t(`workflowEditor.errors.modes.${mode}`),
          }))}
          onChange={(on_error) => put({ on_error }, 'on_error')}
          data-testid="wf-field-on-error"
        />
      </Form.Item>
      {errors.on_error === 'default' ? (
        <Form.Item
          label={t('workflowEditor.errors.defaultOutputs')}
          validateStatus={bad ? 'error' : undefined}
          help={bad ? t('workflowEditor.fields.jsonInvalid') : t('workflowEditor.errors.defaultOutputsHelp')}
        >
          <Input.TextArea
            value={text}
            autoSize={{ minRows: 3, maxRows: 10 }}
            style={{ fontFamily: 'ui-monospace, monospace', fontSize: 12 }}
            onChange={(event) => {
              setText(event.target.value);
              try {
                const parsed: unknown = JSON.parse(event.target.value);
                const ok = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed);
                setBad(!ok);
                if (ok) put({ default_outputs: parsed as Record<string, unknown> }, 'default_outputs');
              } catch {
                setBad(true);
              }
            }}
          />
        </Form.Item>
      ) : null}
    </>
  );
}
