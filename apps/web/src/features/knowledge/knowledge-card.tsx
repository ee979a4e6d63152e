import {
  ApartmentOutlined,
  DatabaseOutlined,
  DeleteOutlined,
  EditOutlined,
  FileTextOutlined,
  MoreOutlined,
} from '@ant-design/icons';
import type { KnowledgeBase } from '@athena/contract';
import { Button, Card, Dropdown, Flex, type MenuProps, Tag, Tooltip, Typography, theme } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useKnowledgePermissions } from './knowledge-permissions.ts';
import { StatusSummary } from './unit-status-badge.tsx';

interface Props {
  base: KnowledgeBase;
  groupName: string | null;
  busy: boolean;
  onOpen: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

export function TypeTag({ type }: { type: KnowledgeBase['type'] }) {
  const { t } = useTranslation();
  return (
    <Tag
      bordered={false}
      color={type === 'graph' ? 'geekblue' : 'blue'}
      icon={type === 'graph' ? <ApartmentOutlined /> : <DatabaseOutlined />}
      data-testid="knowledge-type"
      data-type={type}
      style={{ width: 'fit-content', marginInlineEnd: 0 }}
    >
      {t(`knowledge.type.${type}`)}
    </Tag>
  );
}

/** One base in the grid: what it is, what it holds and how far indexing got; the menu edits or deletes. */
export function KnowledgeCard({ base, groupName, busy, onOpen, onEdit, onDelete }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const may = useKnowledgePermissions(base);
  const items: MenuProps['items'] = [
    ...(may.edit
      ? [
          {
            key: 'edit',
            icon: <EditOutlined />,
            label: <span data-testid="knowledge-edit">{t('knowledge.edit')}</span>,
          },
        ]
      : []),
    ...(may.delete
      ? [
          {
            key: 'delete',
            icon: <DeleteOutlined />,
            danger: true,
            label: <span data-testid="knowledge-delete">{t('knowledge.delete.action')}</span>,
          },
        ]
      : []),
  ];

  return (
    <Card
      hoverable
      onClick={onOpen}
      data-testid="knowledge-card"
      data-knowledge-id={base.id}
      data-knowledge-name={base.name}
      styles={{ body: { padding: 16, height: '100%' } }}
      style={{ height: '100%' }}
    >
      <Flex vertical gap={10} style={{ height: '100%' }}>
        <Flex gap={12} align="flex-start">
          <Flex
            align="center"
            justify="center"
            style={{
              width: 40,
              height: 40,
              flex: 'none',
              borderRadius: 10,
              background: token.colorPrimaryBg,
              color: token.colorPrimary,
              fontSize: 20,
            }}
          >
            {base.type === 'graph' ? <ApartmentOutlined /> : <DatabaseOutlined />}
          </Flex>
          <Flex vertical gap={4} style={{ minWidth: 0, flex: 1 }}>
            <Typography.Text
              strong
              ellipsis={{ tooltip: base.name }}
              style={{ fontSize: 15 }}
              data-testid="knowledge-name"
            >
              {base.name}
            </Typography.Text>
            <Flex gap={4} wrap>
              <TypeTag type={base.type} />
              {groupName ? (
                <Tag bordered={false} style={{ marginInlineEnd: 0 }} data-testid="knowledge-group-tag">
                  {groupName}
                </Tag>
              ) : null}
            </Flex>
          </Flex>
          {items.length > 0 ? (
            // The menu (button and items) must not open the base as well.
            <Dropdown
              trigger={['click']}
              menu={{
                items,
                onClick: ({ key, domEvent }) => {
                  domEvent.stopPropagation();
                  if (key === 'edit') onEdit();
                  if (key === 'delete') onDelete();
                },
              }}
            >
              <Button
                type="text"
                size="small"
                icon={<MoreOutlined />}
                loading={busy}
                aria-label={t('knowledge.more')}
                data-testid="knowledge-card-menu"
                onClick={(event) => event.stopPropagation()}
              />
            </Dropdown>
          ) : null}
        </Flex>
        <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: 0, minHeight: 44, flex: 1 }}>
          {base.description || t('knowledge.noDescription')}
        </Typography.Paragraph>
        <Flex vertical gap={4}>
          <Flex gap={12} wrap style={{ fontSize: 12 }}>
            <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="knowledge-counts">
              <FileTextOutlined /> {t('knowledge.counts', { units: base.unit_count, segments: base.segment_count })}
            </Typography.Text>
            <Typography.Text type="secondary" ellipsis style={{ fontSize: 12, maxWidth: 200 }}>
              {base.embedding_model_label ?? t('knowledge.fullTextOnly')}
            </Typography.Text>
          </Flex>
          <StatusSummary counts={base.status_counts} testId="knowledge-status-summary" />
        </Flex>
        <Flex
          justify="space-between"
          align="center"
          gap={8}
          style={{ borderTop: `1px solid ${token.colorSplit}`, paddingTop: 10 }}
        >
          <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }} data-testid="knowledge-creator">
            {base.created_by.nickname}
          </Typography.Text>
          <Tooltip title={dayjs(base.updated_at).format('YYYY-MM-DD HH:mm')}>
            <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
              {t('knowledge.updated', { time: dayjs(base.updated_at).fromNow() })}
            </Typography.Text>
          </Tooltip>
        </Flex>
      </Flex>
    </Card>
  );
}
