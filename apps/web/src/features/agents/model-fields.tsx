import { Alert, Button, Flex, Form, InputNumber, Select, Slider, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useGo } from '../../lib/navigation.ts';
import { useChatModelOptions } from './chat-model-options.tsx';

/** Which chat key answers (or the space's default) and how: temperature and the answer length cap. */
export function ModelFields({ spaceId, savedKeyId }: { spaceId: string; savedKeyId: string | null }) {
  const { t } = useTranslation();
  const go = useGo();
  const choices = useChatModelOptions(spaceId, 'agent-model-option');
  const fallback = choices.teamKeys.find((key) => key.is_default);
  const missing = savedKeyId && choices.ready && !choices.knows(savedKeyId);

  const options = [
    {
      value: '',
      label: (
        <span data-testid="agent-model-option-default">
          {fallback
            ? t('agents.fields.modelDefault', { name: `${fallback.model_name} · ${fallback.version}` })
            : t('agents.fields.modelDefaultNone')}
        </span>
      ),
    },
    ...choices.groups,
    ...(missing ? [{ value: savedKeyId, label: <Tag color="error">{t('agents.fields.modelMissing')}</Tag> }] : []),
  ];

  return (
    <>
      {choices.empty ? (
        <Alert
          type="warning"
          showIcon
          data-testid="agent-no-model-key"
          title={t('agents.fields.noKeyTitle')}
          description={t('agents.fields.noKeyText')}
          action={
            <Button size="small" onClick={() => go('authCenter')}>
              {t('routes.authCenter')}
            </Button>
          }
          style={{ marginBottom: 16 }}
        />
      ) : null}
      <Form.Item name="model_key_id" label={t('agents.fields.model')} extra={t('agents.fields.modelHelp')}>
        <Select options={options} loading={choices.loading} data-testid="agent-model-select" />
      </Form.Item>
      <Form.Item label={t('agents.fields.temperature')} extra={t('agents.fields.temperatureHelp')}>
        <Flex gap={12} align="center">
          <Form.Item name="temperature" noStyle>
            <Slider min={0} max={2} step={0.1} style={{ flex: 1 }} data-testid="agent-temperature" />
          </Form.Item>
          <Form.Item name="temperature" noStyle>
            <InputNumber
              min={0}
              max={2}
              step={0.1}
              precision={1}
              style={{ width: 72 }}
              aria-label={t('agents.fields.temperature')}
            />
          </Form.Item>
        </Flex>
      </Form.Item>
      <Form.Item name="max_tokens" label={t('agents.fields.maxTokens')} extra={t('agents.fields.maxTokensHelp')}>
        <InputNumber
          min={1}
          max={32000}
          precision={0}
          placeholder={t('agents.fields.maxTokensNone')}
          style={{ width: 200 }}
          data-testid="agent-max-tokens"
        />
      </Form.Item>
    </>
  );
}
