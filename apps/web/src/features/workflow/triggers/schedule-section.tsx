import type { WorkflowSchedule } from '@athena/contract';
import { Alert, App, Button, Flex, Input, Select, Switch, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { errorNotice } from '../../../lib/error-notice.ts';
import { useSaveSchedule, useSchedule, useSchedulePreview } from './trigger-queries.ts';

interface Props {
  spaceId: string | null;
  workflowId: string;
  canChange: boolean;
  inputs: Record<string, unknown>;
}

const zones = (): string[] => {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['UTC'];
  }
};
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** What is typed, once typing has paused: the preview asks the server at that pace. */
function useSettled<T>(value: T, ms = 400) {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The schedule's fields; loaded once, then the person's until saved. */
function ScheduleForm({ saved, ...props }: Props & { saved: WorkflowSchedule | null }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const showError = (caught: unknown) => {
    const notice = errorNotice(caught);
    if (notice) void message.error(notice);
  };
  const [cron, setCron] = useState(saved?.cron ?? '0 9 * * 1-5');
  const [timezone, setTimezone] = useState(saved?.timezone ?? browserZone());
  const [inputsText, setInputsText] = useState(JSON.stringify(saved?.inputs ?? props.inputs, null, 2));
  const [enabled, setEnabled] = useState(saved?.enabled ?? true);
  const settledCron = useSettled(cron);
  const preview = useSchedulePreview(props.spaceId, settledCron, timezone);
  const save = useSaveSchedule(props.spaceId, props.workflowId);
  const options = useMemo(() => zones().map((zone) => ({ value: zone, label: zone })), []);
  const format = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { timeZone: timezone, dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date(iso),
    );

  let parsedInputs: Record<string, unknown> | null = null;
  try {
    const value: unknown = JSON.parse(inputsText || '{}');
    if (value && typeof value === 'object' && !Array.isArray(value)) parsedInputs = value as Record<string, unknown>;
  } catch {
    parsedInputs = null;
  }

  const submit = () => {
    if (!parsedInputs) return;
    save.mutate(
      { cron, timezone, inputs: parsedInputs, enabled },
      {
        onSuccess: () => void message.success(t('workflowTriggers.schedule.saved')),
        onError: (caught) => showError(caught),
      },
    );
  };
  const previewError = preview.error instanceof ApiError ? preview.error.message : null;
  const fires = preview.data?.next_fires ?? [];

  return (
    <Flex vertical gap={12} data-testid="wf-triggers-schedule">
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('workflowTriggers.schedule.explain')}
      </Typography.Paragraph>
      <Flex gap={8} align="center">
        <Switch checked={enabled} disabled={!props.canChange} onChange={setEnabled} data-testid="wf-schedule-enabled" />
        <Typography.Text>{t('workflowTriggers.schedule.enabled')}</Typography.Text>
      </Flex>
      <Typography.Text strong>{t('workflowTriggers.schedule.cron')}</Typography.Text>
      <Input
        value={cron}
        onChange={(event) => setCron(event.target.value)}
        disabled={!props.canChange}
        style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' }}
        data-testid="wf-schedule-cron"
      />
      <Typography.Text type="secondary">{t('workflowTriggers.schedule.cronHelp')}</Typography.Text>
      <Typography.Text strong>{t('workflowTriggers.schedule.timezone')}</Typography.Text>
      <Select
        showSearch
        value={timezone}
        onChange={setTimezone}
        options={options}
        disabled={!props.canChange}
        data-testid="wf-schedule-timezone"
      />
      <Typography.Text strong>{t('workflowTriggers.schedule.nextFires')}</Typography.Text>
      {previewError ? (
        <Alert type="error" showIcon title={previewError} data-testid="wf-schedule-invalid" />
      ) : (
        <ul style={{ margin: 0, paddingInlineStart: 20 }} data-testid="wf-schedule-next">
          {fires.map((fire) => (
            <li key={fire}>{format(fire)}</li>
          ))}
        </ul>
      )}
      <Typography.Text strong>{t('workflowTriggers.schedule.inputs')}</Typography.Text>
      <Input.TextArea
        value={inputsText}
        onChange={(event) => setInputsText(event.target.value)}
        autoSize={{ minRows: 3, maxRows: 10 }}
        disabled={!props.canChange}
        status={parsedInputs ? undefined : 'error'}
        style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' }}
        data-testid="wf-schedule-inputs"
      />
      {parsedInputs ? null : (
        <Typography.Text type="danger">{t('workflowTriggers.schedule.inputsInvalid')}</Typography.Text>
      )}
      {saved?.last_fired_at ? (
        <Typography.Text type="secondary">
          {t('workflowTriggers.schedule.lastFired', { at: format(saved.last_fired_at) })}
        </Typography.Text>
      ) : null}
      {props.canChange ? (
        <Button
          type="primary"
          onClick={submit}
          loading={save.isPending}
          disabled={!parsedInputs}
          style={{ alignSelf: 'flex-start' }}
          data-testid="wf-schedule-save"
        >
          {t('workflowTriggers.schedule.save')}
        </Button>
      ) : null}
    </Flex>
  );
}

export function ScheduleSection(props: Props) {
  const schedule = useSchedule(props.spaceId, props.workflowId, true);
  if (schedule.isPending) return null;
  return <ScheduleForm {...props} saved={schedule.data ?? null} />;
}
