import { type EnvironmentVariable, WORKFLOW_LIMITS } from '@athena/contract';
import { Drawer, Flex, Form, Input, InputNumber, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { updateRest, useEditorStore } from './editor-store.ts';
import { environmentRefusals } from './environment-rules.ts';
import { Rows } from './panel-fields.tsx';

const TYPES = ['string', 'number', 'secret'] as const;

/**
 * The workflow's environment variables and run limits, saved with the draft. A secret's value is
 * never put back on screen: the field stays empty with "saved (hidden)" until a new value is typed.
 */
function SettingsForm() {
  const { t } = useTranslation();
  const rest = useEditorStore((state) => state.rest);
  const readOnly = useEditorStore((state) => state.readOnly);
  const [rows, setRows] = useState<EnvironmentVariable[]>(rest.environment);
  // Rows whose secret was typed here; the others' secrets stay hidden.
  const [retyped, setRetyped] = useState<ReadonlySet<number>>(new Set());
  const refusals = environmentRefusals(rows);

  const change = (next: EnvironmentVariable[], typed: ReadonlySet<number> = retyped) => {
    setRows(next);
    setRetyped(typed);
    if (environmentRefusals(next).size === 0) updateRest({ environment: next });
  };

  return (
    <Form layout="vertical" size="small" component={false} disabled={readOnly}>
      <Typography.Text strong>{t('workflowEditor.settings.environment')}</Typography.Text>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: 4 }}>
        {t('workflowEditor.settings.environmentHelp')}
      </Typography.Paragraph>
      <Rows
        items={rows}
        max={50}
        testId="wf-settings-env"
        onChange={(next) => change(next, next.length < rows.length ? new Set() : retyped)}
        create={(): EnvironmentVariable => ({ name: `VAR_${rows.length + 1}`, type: 'string', value: '' })}
        render={(item, update, index) => {
          const refusal = refusals.get(index);
          const secretHidden = item.type === 'secret' && !retyped.has(index);
          return (
            <Flex vertical gap={2}>
              <Flex gap={4}>
                <Input
                  value={item.name}
                  placeholder={t('workflowEditor.settings.name')}
                  status={refusal === 'nameInvalid' || refusal === 'nameTaken' ? 'error' : undefined}
                  onChange={(e) => update({ ...item, name: e.target.value })}
                  data-testid="wf-env-name"
                />
                <Select
                  value={item.type}
                  style={{ width: 110, flex: 'none' }}
                  options={TYPES.map((type) => ({ value: type, label: t(`workflowEditor.settings.types.${type}`) }))}
                  // A variable turned secret keeps its value, hidden from now on; one turned back
                  // from secret starts empty, so a hidden value is never revealed by the switch.
                  onChange={(type) => update({ ...item, type, value: item.type === 'secret' ? '' : item.value })}
                  data-testid="wf-env-type"
                />
              </Flex>
              {item.type === 'secret' ? (
                <Input.Password
                  value={secretHidden ? '' : item.value}
                  visibilityToggle={false}
                  autoComplete="new-password"
                  placeholder={
                    item.value ? t('workflowEditor.settings.secretKept') : t('workflowEditor.settings.value')
                  }
                  onChange={(e) =>
                    change(
                      rows.map((row, at) => (at === index ? { ...item, value: e.target.value } : row)),
                      new Set([...retyped, index]),
                    )
                  }
                  data-testid="wf-env-value"
                />
              ) : (
                <Input
                  value={item.value}
                  placeholder={t('workflowEditor.settings.value')}
                  status={refusal === 'numberInvalid' ? 'error' : undefined}
                  onChange={(e) => update({ ...item, value: e.target.value })}
                  data-testid="wf-env-value"
                />
              )}
              {refusal ? (
                <Typography.Text type="danger" style={{ fontSize: 12 }}>
                  {t(`workflowEditor.settings.${refusal}`)}
                </Typography.Text>
              ) : null}
            </Flex>
          );
        }}
      />
      <Typography.Text strong style={{ display: 'block', marginTop: 20 }}>
        {t('workflowEditor.settings.limits')}
      </Typography.Text>
      <Form.Item
        label={t('workflowEditor.settings.maxSteps')}
        extra={t('workflowEditor.settings.maxStepsHelp')}
        style={{ marginTop: 8 }}
      >
        <InputNumber
          min={1}
          max={WORKFLOW_LIMITS.maxStepsCeiling}
          precision={0}
          value={rest.settings.max_steps}
          onChange={(value) => value !== null && updateRest({ settings: { ...rest.settings, max_steps: value } })}
          style={{ width: '100%' }}
          data-testid="wf-settings-max-steps"
        />
      </Form.Item>
      <Form.Item
        label={t('workflowEditor.settings.maxRunSeconds')}
        extra={t('workflowEditor.settings.maxRunSecondsHelp')}
      >
        <InputNumber
          min={1}
          max={WORKFLOW_LIMITS.maxRunMsCeiling / 1000}
          precision={0}
          value={Math.round(rest.settings.max_run_ms / 1000)}
          onChange={(value) =>
            value !== null && updateRest({ settings: { ...rest.settings, max_run_ms: value * 1000 } })
          }
          style={{ width: '100%' }}
          data-testid="wf-settings-max-run"
        />
      </Form.Item>
    </Form>
  );
}

export function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('workflowEditor.settings.title')}
      size={420}
      destroyOnHidden
      data-testid="wf-settings-drawer"
    >
      {/* Unmounted as soon as it closes, so a secret typed here is hidden again when it reopens. */}
      {open ? <SettingsForm /> : null}
    </Drawer>
  );
}
