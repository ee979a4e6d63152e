import { type Agent, agentRoutes, ERRORS } from '@athena/contract';
import { Alert, App, Button, Divider, Flex, Form, Input, Tag, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../lib/i18n.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { useLeaveGuard } from '../../shared/hooks/use-leave-guard.ts';
import { KnowledgeAttachField } from '../knowledge/knowledge-attach-field.tsx';
import { AgentAvatar, isImageUrl } from './agent-avatar.tsx';
import { refreshAgents } from './agent-queries.ts';
import { type EditorValues, isDirty, toUpdateBody, toValues } from './editor-values.ts';
import { McpToolsField } from './mcp-tools-field.tsx';
import { ModelFields } from './model-fields.tsx';
import { SuggestedQuestionsField } from './suggested-questions-field.tsx';

interface Props {
  agent: Agent;
  spaceId: string;
  canEdit: boolean;
}

/** The agent's settings. The playground beside it always talks to the saved version. */
export function AgentEditor({ agent, spaceId, canEdit }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const [form] = Form.useForm<EditorValues>();
  const [dirty, setDirty] = useState(false);
  const update = useApiMutation(agentRoutes.update);
  const saving = update.isPending;
  const language = currentLocale();
  const name = Form.useWatch('name', form) ?? agent.name;
  const avatarUrl = Form.useWatch('avatar_url', form) ?? agent.avatar_url ?? '';
  useLeaveGuard(dirty, {
    title: t('agents.editor.leaveTitle'),
    text: t('agents.editor.leaveText'),
    ok: t('agents.editor.leaveOk'),
    stay: t('agents.editor.leaveStay'),
  });

  const save = (values: EditorValues) =>
    update.mutate(toUpdateBody(agent, values), {
      onSuccess: (saved) => {
        queryClient.setQueryData(queryKeys.agents.detail(spaceId, agent.id), saved);
        form.setFieldsValue(toValues(saved));
        setDirty(false);
        void message.success(t('agents.editor.saved'));
        void refreshAgents(spaceId);
      },
    });

  const discard = () => {
    form.resetFields();
    form.setFieldsValue(toValues(agent));
    setDirty(false);
  };

  return (
    <Form<EditorValues>
      form={form}
      layout="vertical"
      initialValues={toValues(agent)}
      disabled={!canEdit}
      requiredMark={false}
      onValuesChange={(_, all) => setDirty(isDirty(agent, { ...toValues(agent), ...all }))}
      onFinish={save}
      data-testid="agent-editor"
      style={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }}
    >
      <div style={{ flex: 1, overflowY: 'auto', padding: '4px 20px 8px', minHeight: 0 }}>
        {canEdit ? null : (
          <Alert
            type="info"
            showIcon
            title={t('agents.editor.readonly')}
            data-testid="agent-editor-readonly"
            style={{ marginBottom: 16 }}
          />
        )}
        <Flex gap={16} align="flex-start">
          <AgentAvatar name={name || agent.name} url={avatarUrl || null} size={64} />
          <div style={{ flex: 1, minWidth: 0 }}>
            <Form.Item
              name="name"
              label={t('agents.fields.name')}
              rules={[
                { required: true, whitespace: true, message: ERRORS.AGENT_NAME_REQUIRED.msg[language] },
                { max: 50, message: ERRORS.AGENT_NAME_TOO_LONG.msg[language] },
              ]}
            >
              <Input maxLength={60} data-testid="agent-name-input" />
            </Form.Item>
          </div>
        </Flex>
        <Form.Item
          name="avatar_url"
          label={t('agents.fields.avatar')}
          extra={t('agents.fields.avatarHelp')}
          rules={[
            {
              validator: (_, value: string) =>
                !value?.trim() || isImageUrl(value)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('agents.fields.avatarInvalid'))),
            },
          ]}
        >
          <Input maxLength={500} placeholder="https://…" data-testid="agent-avatar-input" />
        </Form.Item>
        <Form.Item name="description" label={t('agents.fields.description')}>
          <Input.TextArea
            maxLength={500}
            autoSize={{ minRows: 2, maxRows: 4 }}
            placeholder={t('agents.fields.descriptionPlaceholder')}
            data-testid="agent-description-input"
          />
        </Form.Item>
        <Divider titlePlacement="start" plain style={{ margin: '20px 0 12px' }}>
          {t('agents.editor.sectionPrompt')}
        </Divider>
        <Form.Item
          name="system_prompt"
          label={t('agents.fields.systemPrompt')}
          extra={t('agents.fields.systemPromptHelp')}
        >
          <Input.TextArea
            maxLength={20000}
            autoSize={{ minRows: 5, maxRows: 14 }}
            placeholder={t('agents.fields.systemPromptPlaceholder')}
            data-testid="agent-system-prompt-input"
          />
        </Form.Item>
        <Form.Item name="opening_message" label={t('agents.fields.opening')} extra={t('agents.fields.openingHelp')}>
          <Input.TextArea
            maxLength={2000}
            autoSize={{ minRows: 2, maxRows: 6 }}
            placeholder={t('agents.fields.openingPlaceholder')}
            data-testid="agent-opening-input"
          />
        </Form.Item>
        <SuggestedQuestionsField disabled={!canEdit} />
        <Divider titlePlacement="start" plain style={{ margin: '20px 0 12px' }}>
          {t('agents.editor.sectionModel')}
        </Divider>
        <ModelFields spaceId={spaceId} savedKeyId={agent.model_key_id} />
        <Divider titlePlacement="start" plain style={{ margin: '20px 0 12px' }}>
          {t('agents.editor.sectionKnowledge')}
        </Divider>
        <KnowledgeAttachField spaceId={spaceId} savedIds={agent.attachments.knowledge_ids} />
        <Divider titlePlacement="start" plain style={{ margin: '20px 0 12px' }}>
          {t('agents.mcpTools.section')}
        </Divider>
        <McpToolsField spaceId={spaceId} savedRefs={agent.attachments.mcp_tools ?? []} />
      </div>
      {canEdit ? (
        <Flex
          justify="space-between"
          align="center"
          gap={8}
          style={{ padding: '10px 20px', borderTop: `1px solid ${token.colorSplit}` }}
        >
          {dirty ? (
            <Tag color="warning" bordered={false} data-testid="agent-editor-dirty">
              {t('agents.editor.unsaved')}
            </Tag>
          ) : (
            <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="agent-editor-clean">
              {t('agents.editor.allSaved')}
            </Typography.Text>
          )}
          <Flex gap={8}>
            <Button onClick={discard} disabled={!dirty || saving} data-testid="agent-discard">
              {t('agents.editor.discard')}
            </Button>
            <Button type="primary" htmlType="submit" loading={saving} disabled={!dirty} data-testid="agent-save">
              {t('agents.editor.save')}
            </Button>
          </Flex>
        </Flex>
      ) : null}
    </Form>
  );
}
