import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { ACTIVATION_LIMITS, type ActivationMode, type ActivationTemplate, activationRoutes } from '@athena/contract';
import {
  App,
  Button,
  Drawer,
  Empty,
  Flex,
  Form,
  Input,
  List,
  Modal,
  Popconfirm,
  Radio,
  Skeleton,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { showErrorNotice } from '../../lib/error-notice.ts';
import { ListLoadError } from '../../shared/ui/list-page-parts.tsx';
import { refreshActivation, useActivationTemplates } from './activation-queries.ts';

interface Props {
  open: boolean;
  onClose: () => void;
  canActivate: boolean;
  spaceId: string | null;
  sceneId: number;
}

interface Draft {
  id: string | null;
  name: string;
  mode: ActivationMode;
  body: string;
}

/** The scene's activation templates: a text with {{variables}}, or an instruction the agent writes from. */
export function ActivationTemplatesDrawer({ open, onClose, canActivate, spaceId, sceneId }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const templates = useActivationTemplates(spaceId, sceneId);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    if (!draft) return;
    setSaving(true);
    try {
      const body = { name: draft.name, mode: draft.mode, body: draft.body };
      if (draft.id) await api(activationRoutes.templateUpdate, { id: draft.id, ...body });
      else await api(activationRoutes.templateCreate, body);
      void message.success(t('userProfile.activation.templates.saved'));
      setDraft(null);
      await refreshActivation(spaceId, sceneId);
    } catch (error) {
      showErrorNotice(error);
    } finally {
      setSaving(false);
    }
  };
  const remove = async (template: ActivationTemplate) => {
    try {
      await api(activationRoutes.templateDelete, { id: template.id });
      await refreshActivation(spaceId, sceneId);
    } catch (error) {
      showErrorNotice(error);
    }
  };

  const list = () => {
    if (templates.isError) {
      return (
        <ListLoadError
          title={t('userProfile.activation.loadFailed')}
          error={templates.error}
          onRetry={() => void templates.refetch()}
          testId="activation-templates-error"
        />
      );
    }
    if (templates.isPending) return <Skeleton active />;
    if (templates.data.length === 0) {
      return (
        <Empty description={t('userProfile.activation.templates.none')} data-testid="activation-templates-empty" />
      );
    }
    return (
      <List
        dataSource={templates.data}
        renderItem={(template) => (
          <List.Item
            data-testid="activation-template-row"
            actions={
              canActivate
                ? [
                    <Button
                      key="edit"
                      type="text"
                      icon={<EditOutlined />}
                      aria-label={t('userProfile.activation.edit')}
                      onClick={() => setDraft({ ...template })}
                    />,
                    <Popconfirm
                      key="delete"
                      title={t('userProfile.activation.templates.deleteConfirm')}
                      onConfirm={() => void remove(template)}
                    >
                      <Button
                        type="text"
                        danger
                        icon={<DeleteOutlined />}
                        aria-label={t('userProfile.activation.delete')}
                      />
                    </Popconfirm>,
                  ]
                : []
            }
          >
            <List.Item.Meta
              title={
                <Flex gap={8} align="center">
                  {template.name}
                  <Tag>{t(`userProfile.activation.mode.${template.mode}`)}</Tag>
                </Flex>
              }
              description={<Typography.Paragraph ellipsis={{ rows: 2 }}>{template.body}</Typography.Paragraph>}
            />
          </List.Item>
        )}
      />
    );
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      width={520}
      title={t('userProfile.activation.templates.title')}
      extra={
        canActivate ? (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setDraft({ id: null, name: '', mode: 'template', body: '' })}
            data-testid="activation-template-new"
          >
            {t('userProfile.activation.templates.new')}
          </Button>
        ) : null
      }
    >
      {list()}
      <Modal
        open={draft !== null}
        title={draft?.id ? t('userProfile.activation.templates.edit') : t('userProfile.activation.templates.new')}
        onCancel={() => setDraft(null)}
        onOk={() => void save()}
        okButtonProps={{ loading: saving, disabled: !draft?.name.trim() || !draft?.body.trim() }}
        okText={t('userProfile.activation.save')}
        destroyOnHidden
      >
        {draft ? (
          <Form layout="vertical">
            <Form.Item label={t('userProfile.activation.templates.name')} required>
              <Input
                value={draft.name}
                maxLength={ACTIVATION_LIMITS.templateName}
                onChange={(e) => setDraft({ ...draft, name: e.target.value })}
                data-testid="activation-template-name"
              />
            </Form.Item>
            <Form.Item label={t('userProfile.activation.templates.mode')}>
              <Radio.Group
                value={draft.mode}
                onChange={(e) => setDraft({ ...draft, mode: e.target.value })}
                options={(['template', 'agent'] as const).map((mode) => ({
                  value: mode,
                  label: t(`userProfile.activation.mode.${mode}`),
                }))}
              />
            </Form.Item>
            <Form.Item
              label={
                draft.mode === 'template'
                  ? t('userProfile.activation.templates.body')
                  : t('userProfile.activation.templates.instruction')
              }
              extra={
                draft.mode === 'template'
                  ? t('userProfile.activation.templates.variablesHelp', {
                      builtin: '{{customer_name}}',
                      field: `{{${t('userProfile.activation.templates.exampleField')}}}`,
                      fallback: `{{${t('userProfile.activation.templates.exampleField')}|${t('userProfile.activation.templates.exampleFallback')}}}`,
                      interpolation: { escapeValue: false },
                    })
                  : t('userProfile.activation.templates.agentHelp')
              }
              required
            >
              <Input.TextArea
                value={draft.body}
                rows={5}
                maxLength={ACTIVATION_LIMITS.body}
                showCount
                onChange={(e) => setDraft({ ...draft, body: e.target.value })}
                data-testid="activation-template-body"
              />
            </Form.Item>
          </Form>
        ) : null}
      </Modal>
    </Drawer>
  );
}
