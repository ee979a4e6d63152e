import { CaretRightOutlined, StopOutlined } from '@ant-design/icons';
import type { StartInput } from '@athena/contract';
import { readsOf } from '@athena/workflow-engine';
import { Alert, App, Button, Drawer, Flex, Form, Input, Select, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/api-client.ts';
import { currentLocale } from '../../../lib/i18n.ts';
import { currentGraph, useEditorStore } from './editor-store.ts';
import { type InputRefusal, readInputs } from './run-inputs.ts';
import { RunResultView } from './run-result-view.tsx';
import { useTestRun } from './use-test-run.ts';

const MONO = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 12 };

function InputField({
  input,
  value,
  onChange,
}: {
  input: StartInput;
  value: string;
  onChange: (next: string) => void;
}) {
  const { t } = useTranslation();
  const testId = `wf-run-input-${input.name}`;
  switch (input.type) {
    case 'paragraph':
      return (
        <Input.TextArea
          value={value}
          autoSize={{ minRows: 2, maxRows: 8 }}
          onChange={(e) => onChange(e.target.value)}
          data-testid={testId}
        />
      );
    case 'json':
      return (
        <Input.TextArea
          value={value}
          autoSize={{ minRows: 2, maxRows: 8 }}
          placeholder={t('workflowEditor.run.jsonHint')}
          style={MONO}
          onChange={(e) => onChange(e.target.value)}
          data-testid={testId}
        />
      );
    case 'select':
      return (
        <Select
          value={value || undefined}
          allowClear
          placeholder={t('workflowEditor.run.choose')}
          options={input.options.map((option) => ({ value: option, label: option }))}
          onChange={(next?: string) => onChange(next ?? '')}
          data-testid={testId}
        />
      );
    case 'number':
      return (
        <Input value={value} inputMode="decimal" onChange={(e) => onChange(e.target.value)} data-testid={testId} />
      );
    default:
      return <Input value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId} />;
  }
}

/** Whether any node reads `sys.query`, so the form asks for it only when it matters. */
function readsQuery(): boolean {
  return currentGraph().nodes.some((node) =>
    readsOf(node).some((read) => read.selector[0] === 'sys' && read.selector[1] === 'query'),
  );
}

interface Props {
  open: boolean;
  onClose: () => void;
  workflowId: string;
  /** Saves the draft now; false when it could not (the run would not be of what is on screen). */
  flush: () => Promise<boolean>;
}

/**
 * The test run: a form built from the start node's inputs, then the run followed live beside the
 * canvas (no mask: the nodes light up as it goes). The draft is saved first, since the server runs
 * the saved draft.
 */
export function RunPanel({ open, onClose, workflowId, flush }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const start = useEditorStore((state) =>
    state.nodes.find((node) => node.data.node.type === 'start' && !node.parentId),
  );
  const inputs = start?.data.node.type === 'start' ? start.data.node.data.inputs : [];
  const version = useEditorStore((state) => state.version);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the version stands for the document readsQuery reads
  const askQuery = useMemo(() => open && readsQuery(), [open, version]);
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [query, setQuery] = useState('');
  const [refusals, setRefusals] = useState<Record<string, InputRefusal>>({});
  const [saving, setSaving] = useState(false);
  const [notSaved, setNotSaved] = useState(false);
  const run = useTestRun(workflowId);
  const busy = saving || run.phase === 'starting' || run.phase === 'running' || run.phase === 'reconnecting';

  const submit = async () => {
    const read = readInputs(inputs, texts);
    setRefusals(read.refusals);
    if (Object.keys(read.refusals).length > 0) return;
    setSaving(true);
    setNotSaved(false);
    const saved = await flush().finally(() => setSaving(false));
    if (!saved) {
      setNotSaved(true);
      return;
    }
    await run.start(read.values, query);
  };

  const cancel = async () => {
    try {
      await run.cancel();
    } catch (error) {
      void message.error(errorText(error, currentLocale()));
    }
  };

  const refusalText = (input: StartInput) => {
    const refusal = refusals[input.name];
    return refusal ? t(`workflowEditor.run.invalid.${refusal}`, { max: input.max_length ?? 0 }) : undefined;
  };

  return (
    <Drawer
      open={open}
      onClose={() => {
        run.reset();
        onClose();
      }}
      title={t('workflowEditor.run.title')}
      size={440}
      mask={false}
      data-testid="wf-run-panel"
      extra={
        busy && run.run.runId ? (
          <Button danger icon={<StopOutlined />} onClick={() => void cancel()} data-testid="wf-run-cancel">
            {t('workflowEditor.run.cancel')}
          </Button>
        ) : null
      }
    >
      <Flex vertical gap={16}>
        <Form layout="vertical" size="small" component={false} disabled={busy}>
          <Typography.Text strong>{t('workflowEditor.run.inputs')}</Typography.Text>
          {inputs.length === 0 && !askQuery ? (
            <Typography.Paragraph type="secondary" style={{ marginTop: 4 }}>
              {t('workflowEditor.run.noInputs')}
            </Typography.Paragraph>
          ) : null}
          {inputs.map((input) => (
            <Form.Item
              key={input.name}
              label={input.label || input.name}
              required={input.required}
              validateStatus={refusals[input.name] ? 'error' : undefined}
              help={refusalText(input)}
              extra={input.type === 'file' ? t('workflowEditor.run.fileHint') : undefined}
              style={{ marginTop: 8, marginBottom: 8 }}
            >
              <InputField
                input={input}
                value={texts[input.name] ?? ''}
                onChange={(next) => setTexts((current) => ({ ...current, [input.name]: next }))}
              />
            </Form.Item>
          ))}
          {askQuery ? (
            <Form.Item label={t('workflowEditor.run.query')} style={{ marginTop: 8, marginBottom: 8 }}>
              <Input.TextArea
                value={query}
                autoSize={{ minRows: 1, maxRows: 6 }}
                onChange={(e) => setQuery(e.target.value)}
                data-testid="wf-run-query"
              />
            </Form.Item>
          ) : null}
        </Form>
        <Button
          type="primary"
          icon={<CaretRightOutlined />}
          loading={busy}
          onClick={() => void submit()}
          data-testid="wf-run-start"
          style={{ alignSelf: 'flex-start' }}
        >
          {saving
            ? t('workflowEditor.run.saving')
            : run.phase === 'idle'
              ? t('workflowEditor.run.start')
              : t('workflowEditor.run.again')}
        </Button>
        {notSaved ? (
          <Alert type="error" showIcon title={t('workflowEditor.run.notSaved')} data-testid="wf-run-not-saved" />
        ) : null}
        <RunResultView state={run} workflowId={workflowId} />
      </Flex>
    </Drawer>
  );
}
