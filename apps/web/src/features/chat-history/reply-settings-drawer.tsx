import {
  chatHistoryRoutes,
  DEFAULT_REPLY_SETTINGS,
  ERRORS,
  REPLY_CHARS,
  REPLY_MODES,
  type ReplySettings,
  type SceneSettings,
} from '@athena/contract';
import { Alert, App, Button, Divider, Drawer, Flex, Form, Input, Radio, Select, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { useAgentList } from '../agents/agent-queries.ts';
import type { SceneDrawerProps } from './connect-drawer.tsx';
import { browserTimezone, KeywordRepliesField, OfficeHoursFields, TagsInput } from './reply-settings-fields.tsx';

const AGENT_CODES: (number | string)[] = [
  ERRORS.CHAT_REPLY_AGENT_REQUIRED.code,
  ERRORS.CHAT_REPLY_AGENT_NOT_FOUND.code,
];

/** Never saved yet: the office hours start in the browser's time zone rather than the server's default. */
function initialOf(reply: ReplySettings, canConfigure: boolean): ReplySettings {
  const untouched = JSON.stringify(reply) === JSON.stringify(DEFAULT_REPLY_SETTINGS);
  return untouched && canConfigure
    ? { ...reply, office_hours: { ...reply.office_hours, timezone: browserTimezone() } }
    : reply;
}

/**
 * How the scene's conversations are answered (docs/chat-replies.md): the mode, the agent, the AI's
 * hours, the welcome, hand-over keywords and notice, keyword scripts. The creator and admins edit
 * and save the whole; members read it.
 */
export function ReplySettingsDrawer({ open, onClose, settings, canConfigure, spaceId, sceneId }: SceneDrawerProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={600}
      destroyOnHidden
      title={t('chatHistory.reply.title')}
      data-testid="chat-reply-drawer"
    >
      <ReplySettingsForm
        reply={settings.reply}
        canConfigure={canConfigure}
        spaceId={spaceId}
        sceneId={sceneId}
        onSaved={(next) => {
          queryClient.setQueryData(queryKeys.chatHistory.settings(spaceId, sceneId), next);
          void message.success(t('chatHistory.reply.saved'));
          onClose();
        }}
      />
    </Drawer>
  );
}

interface FormProps {
  reply: ReplySettings;
  canConfigure: boolean;
  spaceId: string | null;
  sceneId: number;
  onSaved: (settings: SceneSettings) => void;
}

function ReplySettingsForm({ reply, canConfigure, spaceId, onSaved }: FormProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ReplySettings>();
  const initial = useMemo(() => initialOf(reply, canConfigure), [reply, canConfigure]);
  const save = useApiMutation(chatHistoryRoutes.replyUpdate, { meta: { errorNotice: false } });
  const [error, setError] = useState<string | null>(null);
  const agents = useAgentList(spaceId, '');
  const mode = Form.useWatch('mode', form) ?? initial.mode;
  const aiHours = Form.useWatch('ai_hours', form) ?? initial.ai_hours;
  const timezone = Form.useWatch(['office_hours', 'timezone'], form) ?? initial.office_hours.timezone;

  const submit = async () => {
    setError(null);
    // Fields hidden by the mode keep their values: the whole settings are saved.
    const values: ReplySettings = { ...initial, ...form.getFieldsValue(true) };
    try {
      onSaved(await save.mutateAsync({ ...values, agent_id: values.agent_id || null }));
    } catch (failure) {
      const text = errorText(failure, currentLocale());
      if (failure instanceof ApiError && failure.code !== undefined && AGENT_CODES.includes(failure.code))
        form.setFields([{ name: 'agent_id', errors: [text] }]);
      else setError(text);
    }
  };

  const agentOptions = (agents.data?.items ?? []).map((agent) => ({ value: agent.id, label: agent.name }));
  const textArea = <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={REPLY_CHARS} showCount />;
  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={initial}
      disabled={!canConfigure}
      onFinish={submit}
      onValuesChange={() => setError(null)}
      data-testid="chat-reply-form"
    >
      {canConfigure ? null : (
        <Alert
          type="info"
          showIcon
          title={t('chatHistory.reply.memberNote')}
          style={{ marginBottom: 16 }}
          data-testid="chat-reply-member-note"
        />
      )}
      <Form.Item name="mode" label={t('chatHistory.reply.mode')}>
        <Radio.Group style={{ display: 'flex', flexDirection: 'column', gap: 8 }} data-testid="chat-reply-mode">
          {REPLY_MODES.map((value) => (
            <Radio key={value} value={value} data-testid={`chat-reply-mode-${value}`}>
              <Typography.Text strong>{t(`chatHistory.reply.modes.${value}`)}</Typography.Text>
              <br />
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t(`chatHistory.reply.modeHelp.${value}`)}
              </Typography.Text>
            </Radio>
          ))}
        </Radio.Group>
      </Form.Item>
      <Form.Item
        name="agent_id"
        label={t('chatHistory.reply.agent')}
        extra={
          agentOptions.length === 0 && agents.isSuccess
            ? t('chatHistory.reply.noAgents')
            : t('chatHistory.reply.agentHelp')
        }
      >
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          options={agentOptions}
          loading={agents.isPending}
          placeholder={t('chatHistory.reply.agentPlaceholder')}
          data-testid="chat-reply-agent"
        />
      </Form.Item>
      {mode === 'ai_full' ? (
        <Form.Item name="ai_hours" label={t('chatHistory.reply.aiHours')} style={{ marginBottom: 8 }}>
          <Radio.Group
            options={[
              { value: 'always', label: t('chatHistory.reply.aiHoursAlways') },
              { value: 'outside_office', label: t('chatHistory.reply.aiHoursOutside') },
            ]}
          />
        </Form.Item>
      ) : null}
      {mode === 'ai_full' && aiHours === 'outside_office' ? <OfficeHoursFields current={timezone} /> : null}
      <Divider titlePlacement="start" plain>
        {t('chatHistory.reply.scripts')}
      </Divider>
      <Form.Item name="welcome_text" label={t('chatHistory.reply.welcome')} extra={t('chatHistory.reply.welcomeHelp')}>
        {textArea}
      </Form.Item>
      <Form.Item
        name="handover_keywords"
        label={t('chatHistory.reply.handoverKeywords')}
        extra={t('chatHistory.reply.handoverKeywordsHelp')}
      >
        <TagsInput maxCount={50} data-testid="chat-reply-handover-keywords" />
      </Form.Item>
      <Form.Item
        name="handover_text"
        label={t('chatHistory.reply.handoverText')}
        extra={t('chatHistory.reply.handoverTextHelp')}
      >
        {textArea}
      </Form.Item>
      <Typography.Text strong style={{ display: 'block', marginBottom: 4 }}>
        {t('chatHistory.reply.keywordReplies')}
      </Typography.Text>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {t('chatHistory.reply.keywordRepliesHelp')}
      </Typography.Paragraph>
      <KeywordRepliesField />
      {error ? (
        <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} data-testid="chat-reply-error" />
      ) : null}
      {canConfigure ? (
        <Flex justify="flex-end">
          <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="chat-reply-save">
            {t('chatHistory.reply.save')}
          </Button>
        </Flex>
      ) : null}
    </Form>
  );
}
