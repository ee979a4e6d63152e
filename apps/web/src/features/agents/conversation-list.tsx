import { DeleteOutlined, EditOutlined, MoreOutlined, PlusOutlined } from '@ant-design/icons';
import type { agentRoutes, RouteData } from '@athena/contract';
import { Button, Dropdown, Empty, Flex, Input, Modal, Skeleton, Typography, theme } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

type Conversation = RouteData<typeof agentRoutes.conversations>['items'][number];

interface Props {
  items: Conversation[];
  loading: boolean;
  error: boolean;
  activeId: string | undefined;
  onSelect: (id: string) => void;
  onNew: () => void;
  onRename: (id: string, title: string) => Promise<boolean>;
  onDelete: (conversation: Conversation) => void;
}

/** My earlier conversations with this agent, newest first; each can be renamed or deleted. */
export function ConversationList({ items, loading, error, activeId, onSelect, onNew, onRename, onDelete }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [renaming, setRenaming] = useState<{ id: string; title: string } | null>(null);
  const [saving, setSaving] = useState(false);

  const saveTitle = async () => {
    if (!renaming?.title.trim()) return;
    setSaving(true);
    const ok = await onRename(renaming.id, renaming.title.trim());
    setSaving(false);
    if (ok) setRenaming(null);
  };

  return (
    <Flex vertical style={{ height: '100%', minHeight: 0 }} data-testid="conversation-list">
      <div style={{ padding: 10 }}>
        <Button block icon={<PlusOutlined />} onClick={onNew} data-testid="conversation-new">
          {t('agents.conversations.new')}
        </Button>
      </div>
      <div style={{ flex: 1, overflowY: 'auto', padding: '0 6px 8px', minHeight: 0 }}>
        {loading ? (
          <Skeleton active title={false} paragraph={{ rows: 4 }} style={{ padding: 8 }} />
        ) : error ? (
          <Typography.Text type="danger" style={{ padding: 8, display: 'block', fontSize: 12 }}>
            {t('agents.conversations.loadFailed')}
          </Typography.Text>
        ) : items.length === 0 ? (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={t('agents.conversations.empty')}
            data-testid="conversations-empty"
          />
        ) : (
          items.map((item) => {
            const active = item.id === activeId;
            return (
              <Flex
                key={item.id}
                align="center"
                gap={4}
                className="athena-conversation"
                data-testid="conversation-item"
                data-active={String(active)}
                data-conversation-id={item.id}
                onClick={() => onSelect(item.id)}
                style={{
                  padding: '6px 4px 6px 10px',
                  borderRadius: 8,
                  cursor: 'pointer',
                  background: active ? token.controlItemBgActive : undefined,
                  marginBottom: 2,
                }}
              >
                <Flex vertical style={{ flex: 1, minWidth: 0 }}>
                  <Typography.Text
                    ellipsis
                    style={{ fontSize: 13, color: active ? token.colorPrimaryText : undefined }}
                    data-testid="conversation-title"
                  >
                    {item.title || t('agents.conversations.untitled')}
                  </Typography.Text>
                  <Typography.Text type="secondary" style={{ fontSize: 11 }}>
                    {dayjs(item.updated_at).fromNow()}
                  </Typography.Text>
                </Flex>
                <Dropdown
                  trigger={['click']}
                  menu={{
                    items: [
                      {
                        key: 'rename',
                        icon: <EditOutlined />,
                        label: <span data-testid="conversation-rename">{t('agents.conversations.rename')}</span>,
                      },
                      {
                        key: 'delete',
                        icon: <DeleteOutlined />,
                        danger: true,
                        label: <span data-testid="conversation-delete">{t('agents.conversations.delete')}</span>,
                      },
                    ],
                    onClick: ({ key, domEvent }) => {
                      domEvent.stopPropagation();
                      if (key === 'rename') setRenaming({ id: item.id, title: item.title });
                      else onDelete(item);
                    },
                  }}
                >
                  <Button
                    type="text"
                    size="small"
                    icon={<MoreOutlined />}
                    aria-label={t('agents.more')}
                    data-testid="conversation-menu"
                    onClick={(event) => event.stopPropagation()}
                  />
                </Dropdown>
              </Flex>
            );
          })
        )}
      </div>
      <Modal
        open={renaming !== null}
        title={t('agents.conversations.renameTitle')}
        okText={t('agents.conversations.renameOk')}
        cancelText={t('agents.cancel')}
        confirmLoading={saving}
        okButtonProps={{ disabled: !renaming?.title.trim(), 'data-testid': 'conversation-rename-save' }}
        onOk={() => void saveTitle()}
        onCancel={() => setRenaming(null)}
        destroyOnHidden
      >
        <Input
          autoFocus
          maxLength={100}
          value={renaming?.title ?? ''}
          onChange={(event) => setRenaming((r) => (r ? { ...r, title: event.target.value } : r))}
          onPressEnter={() => void saveTitle()}
          data-testid="conversation-rename-input"
        />
      </Modal>
    </Flex>
  );
}
