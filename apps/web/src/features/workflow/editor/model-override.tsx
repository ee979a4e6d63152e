import { Button, Flex, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  /** The override as saved ('' = the key's own model). */
  value: string;
  /** The model ID the chosen key calls by itself, when it is one of the team's keys. */
  keyVersion: string | null;
  onChange: (value: string) => void;
}

/**
 * Which model a node calls, said under the key it uses: "calls qwen-plus (the key's model) ·
 * use another model ID". The override is a deliberate second step, not a blank box that reads like
 * a required name; once set, it shows with a way back to the key's model.
 */
export function ModelOverride({ value, keyVersion, onChange }: Props) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  if (value === '' && !editing) {
    return (
      <Flex align="center" gap={4} wrap data-testid="wf-model-effective" style={{ marginTop: -16, marginBottom: 16 }}>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {keyVersion
            ? t('workflowEditor.fields.modelCalls', { model: keyVersion })
            : t('workflowEditor.fields.modelCallsKeyOwn')}
        </Typography.Text>
        <Button type="link" size="small" onClick={() => setEditing(true)} data-testid="wf-model-override-open">
          {t('workflowEditor.fields.modelOverride')}
        </Button>
      </Flex>
    );
  }
  return (
    <Flex vertical gap={4} style={{ marginBottom: 16 }}>
      <Typography.Text>{t('workflowEditor.fields.modelName')}</Typography.Text>
      <Input
        autoFocus={editing}
        value={value}
        placeholder={keyVersion ?? undefined}
        onChange={(event) => onChange(event.target.value)}
        data-testid="wf-field-model-name"
      />
      <Flex align="center" gap={4} wrap>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('workflowEditor.fields.modelNameHelp')}
        </Typography.Text>
        <Button
          type="link"
          size="small"
          onClick={() => {
            onChange('');
            setEditing(false);
          }}
          data-testid="wf-model-override-reset"
        >
          {t('workflowEditor.fields.modelOverrideReset')}
        </Button>
      </Flex>
    </Flex>
  );
}
