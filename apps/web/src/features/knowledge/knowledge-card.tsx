import { ApartmentOutlined, DatabaseOutlined, DeleteOutlined, EditOutlined, FileTextOutlined } from '@ant-design/icons';
import type { KnowledgeBase } from '@athena/contract';
import { Flex, type MenuProps, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { EntityCard } from '../../shared/ui/entity-card.tsx';
import { MoreMenu } from '../../shared/ui/more-menu.tsx';
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
    <EntityCard
      icon={base.type === 'graph' ? <ApartmentOutlined /> : <DatabaseOutlined />}
      name={base.name}
      nameTestId="knowledge-name"
      tags={
        <>
          <TypeTag type={base.type} />
          {groupName ? (
            <Tag bordered={false} style={{ marginInlineEnd: 0 }} data-testid="knowledge-group-tag">
              {groupName}
            </Tag>
          ) : null}
        </>
      }
      menu={
        items.length > 0 ? (
          <MoreMenu
            items={items}
            loading={busy}
            label={t('knowledge.more')}
            testId="knowledge-card-menu"
            onSelect={(key) => {
              if (key === 'edit') onEdit();
              if (key === 'delete') onDelete();
            }}
          />
        ) : null
      }
      description={base.description || t('knowledge.noDescription')}
      creator={base.created_by.nickname}
      creatorTestId="knowledge-creator"
      updatedAt={base.updated_at}
      updatedText={(time) => t('knowledge.updated', { time })}
      onClick={onOpen}
      testId="knowledge-card"
      data={{ 'data-knowledge-id': base.id, 'data-knowledge-name': base.name }}
    >
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
    </EntityCard>
  );
}
