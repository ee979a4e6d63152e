import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { PROFILE_LIMITS, type ProfileField, profileRoutes } from '@athena/contract';
import { App, Button, Drawer, Empty, Flex, List, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { FieldModal } from './field-modal.tsx';
import { refreshProfiles, setFieldsInCache } from './profile-queries.ts';

interface Props {
  open: boolean;
  onClose: () => void;
  fields: readonly ProfileField[];
  canDefine: boolean;
  spaceId: string | null;
  sceneId: number;
}

/** The scene's fields in order: the creator and admins add, change, move and delete them; others read. */
export function FieldsDrawer({ open, onClose, fields, canDefine, spaceId, sceneId }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [editing, setEditing] = useState<ProfileField | 'new' | null>(null);
  const reorder = useApiMutation(profileRoutes.fieldReorder);
  const remove = useApiMutation(profileRoutes.fieldDelete);

  const move = async (index: number, by: -1 | 1) => {
    const next = [...fields];
    const [moved] = next.splice(index, 1);
    if (!moved) return;
    next.splice(index + by, 0, moved);
    setFieldsInCache(spaceId, sceneId, next);
    try {
      const answer = await reorder.mutateAsync({ ids: next.map((field) => field.id) });
      setFieldsInCache(spaceId, sceneId, answer.items);
    } catch {
      await refreshProfiles(spaceId, sceneId);
    }
  };

  const deleteField = async (field: ProfileField) => {
    try {
      await remove.mutateAsync({ id: field.id });
      void message.success(t('userProfile.fields.deleted', { name: field.name }));
      await refreshProfiles(spaceId, sceneId);
    } catch {
      // The failure's notice is already showing.
    }
  };

  const flags = (field: ProfileField) => (
    <Space size={4} wrap>
      <Tag bordered={false}>{t(`userProfile.type.${field.type}`)}</Tag>
      {field.required ? (
        <Tag color="red" bordered={false}>
          {t('userProfile.fields.requiredTag')}
        </Tag>
      ) : null}
      {field.ai_extract ? (
        <Tag color="purple" bordered={false}>
          {field.ai_overwrite ? t('userProfile.fields.aiOverwriteTag') : t('userProfile.fields.aiExtractTag')}
        </Tag>
      ) : null}
    </Space>
  );

  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={520}
      title={t('userProfile.fields.title')}
      extra={
        canDefine ? (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setEditing('new')}
            disabled={fields.length >= PROFILE_LIMITS.fieldsPerScene}
            data-testid="profile-field-create"
          >
            {t('userProfile.fields.create')}
          </Button>
        ) : null
      }
      data-testid="profile-fields-drawer"
    >
      <Typography.Paragraph type="secondary">
        {canDefine ? t('userProfile.fields.intro') : t('userProfile.fields.readOnly')}
      </Typography.Paragraph>
      {fields.length === 0 ? (
        <Empty description={t('userProfile.fields.none')} />
      ) : (
        <List
          bordered
          dataSource={[...fields]}
          renderItem={(field, index) => (
            <List.Item
              data-testid="profile-field-item"
              data-name={field.name}
              actions={
                canDefine
                  ? [
                      <Tooltip key="up" title={t('userProfile.fields.moveUp')}>
                        <Button
                          type="text"
                          size="small"
                          icon={<ArrowUpOutlined />}
                          disabled={index === 0 || reorder.isPending}
                          onClick={() => void move(index, -1)}
                          aria-label={t('userProfile.fields.moveUp')}
                          data-testid="profile-field-up"
                        />
                      </Tooltip>,
                      <Tooltip key="down" title={t('userProfile.fields.moveDown')}>
                        <Button
                          type="text"
                          size="small"
                          icon={<ArrowDownOutlined />}
                          disabled={index === fields.length - 1 || reorder.isPending}
                          onClick={() => void move(index, 1)}
                          aria-label={t('userProfile.fields.moveDown')}
                          data-testid="profile-field-down"
                        />
                      </Tooltip>,
                      <Tooltip key="edit" title={t('userProfile.fields.edit')}>
                        <Button
                          type="text"
                          size="small"
                          icon={<EditOutlined />}
                          onClick={() => setEditing(field)}
                          aria-label={t('userProfile.fields.edit')}
                          data-testid="profile-field-edit"
                        />
                      </Tooltip>,
                      <Popconfirm
                        key="delete"
                        title={t('userProfile.fields.deleteTitle', { name: field.name })}
                        description={t('userProfile.fields.deleteText')}
                        okText={t('userProfile.fields.delete')}
                        okButtonProps={{ danger: true, 'data-testid': 'profile-field-delete-ok' }}
                        cancelText={t('userProfile.value.cancel')}
                        onConfirm={() => deleteField(field)}
                      >
                        <Button
                          type="text"
                          size="small"
                          danger
                          icon={<DeleteOutlined />}
                          aria-label={t('userProfile.fields.delete')}
                          data-testid="profile-field-delete"
                        />
                      </Popconfirm>,
                    ]
                  : undefined
              }
            >
              <Flex vertical gap={4} style={{ minWidth: 0 }}>
                <Typography.Text strong ellipsis>
                  {field.name}
                </Typography.Text>
                {flags(field)}
                {field.type === 'select' ? (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }} ellipsis>
                    {field.options.join(' / ')}
                  </Typography.Text>
                ) : null}
                {field.description ? (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }} ellipsis>
                    {field.description}
                  </Typography.Text>
                ) : null}
              </Flex>
            </List.Item>
          )}
        />
      )}
      {editing ? (
        <FieldModal
          field={editing === 'new' ? null : editing}
          spaceId={spaceId}
          sceneId={sceneId}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </Drawer>
  );
}
