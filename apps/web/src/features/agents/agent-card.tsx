import { CopyOutlined, DeleteOutlined, GlobalOutlined, LockOutlined, MoreOutlined } from '@ant-design/icons';
import type { Agent } from '@athena/contract';
import { Button, Card, Dropdown, Flex, type MenuProps, Tag, Tooltip, Typography, theme } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useAgentPermissions } from './agent-actions.ts';
import { AgentAvatar } from './agent-avatar.tsx';

interface Props {
  agent: Agent;
  busy: boolean;
  onOpen: () => void;
  onDuplicate: () => void;
  onDelete: () => void;
}

/** One agent in the grid: who it is, who made it, whether it is shared; the menu copies or deletes. */
export function AgentCard({ agent, busy, onOpen, onDuplicate, onDelete }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const may = useAgentPermissions(agent);

  const items: MenuProps['items'] = [
    ...(may.create
      ? [
          {
            key: 'duplicate',
            icon: <CopyOutlined />,
            label: <span data-testid="agent-duplicate">{t('agents.duplicate')}</span>,
          },
        ]
      : []),
    ...(may.delete
      ? [
          {
            key: 'delete',
            icon: <DeleteOutlined />,
            danger: true,
            label: <span data-testid="agent-delete">{t('agents.delete.action')}</span>,
          },
        ]
      : []),
  ];

  return (
    <Card
      hoverable
      onClick={onOpen}
      data-testid="agent-card"
      data-agent-id={agent.id}
      data-agent-name={agent.name}
      styles={{ body: { padding: 16, height: '100%' } }}
      style={{ height: '100%' }}
    >
      <Flex vertical gap={12} style={{ height: '100%' }}>
        <Flex gap={12} align="flex-start">
          <AgentAvatar name={agent.name} url={agent.avatar_url} size={44} />
          <Flex vertical style={{ minWidth: 0, flex: 1 }}>
            <Typography.Text
              strong
              ellipsis={{ tooltip: agent.name }}
              style={{ fontSize: 15 }}
              data-testid="agent-card-name"
            >
              {agent.name}
            </Typography.Text>
            {agent.share.enabled ? (
              <Tag
                icon={<GlobalOutlined />}
                color="green"
                bordered={false}
                data-testid="agent-card-shared"
                style={{ width: 'fit-content', marginTop: 4 }}
              >
                {t('agents.shareOn')}
              </Tag>
            ) : (
              <Tag
                icon={<LockOutlined />}
                bordered={false}
                data-testid="agent-card-private"
                style={{ width: 'fit-content', marginTop: 4 }}
              >
                {t('agents.shareOff')}
              </Tag>
            )}
          </Flex>
          {items.length > 0 ? (
            // The menu (button and items) must not open the agent as well.
            <Dropdown
              trigger={['click']}
              menu={{
                items,
                onClick: ({ key, domEvent }) => {
                  domEvent.stopPropagation();
                  if (key === 'duplicate') onDuplicate();
                  if (key === 'delete') onDelete();
                },
              }}
            >
              <Button
                type="text"
                size="small"
                icon={<MoreOutlined />}
                loading={busy}
                aria-label={t('agents.more')}
                data-testid="agent-card-menu"
                onClick={(event) => event.stopPropagation()}
              />
            </Dropdown>
          ) : null}
        </Flex>
        <Typography.Paragraph
          type="secondary"
          ellipsis={{ rows: 2 }}
          style={{ margin: 0, minHeight: 44, flex: 1 }}
          data-testid="agent-card-description"
        >
          {agent.description || t('agents.noDescription')}
        </Typography.Paragraph>
        <Flex
          justify="space-between"
          align="center"
          gap={8}
          style={{ borderTop: `1px solid ${token.colorSplit}`, paddingTop: 10, fontSize: 12 }}
        >
          <Flex align="center" gap={6} style={{ minWidth: 0 }}>
            <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }} data-testid="agent-card-creator">
              {agent.created_by.nickname}
            </Typography.Text>
            {agent.created_by.former_member ? (
              <Tooltip title={t('agents.formerMemberHelp')}>
                <Tag
                  bordered={false}
                  color="default"
                  style={{ fontSize: 11, marginInlineEnd: 0 }}
                  data-testid="agent-card-former-member"
                >
                  {t('agents.formerMember')}
                </Tag>
              </Tooltip>
            ) : null}
          </Flex>
          <Tooltip title={dayjs(agent.updated_at).format('YYYY-MM-DD HH:mm')}>
            <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
              {t('agents.updated', { time: dayjs(agent.updated_at).fromNow() })}
            </Typography.Text>
          </Tooltip>
        </Flex>
      </Flex>
    </Card>
  );
}
