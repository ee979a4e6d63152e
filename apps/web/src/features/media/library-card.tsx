import { DeleteOutlined, EditOutlined, FolderOpenOutlined, VideoCameraOutlined } from '@ant-design/icons';
import type { MediaLibrary } from '@athena/contract';
import { type MenuProps, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../lib/format.ts';
import { EntityCard } from '../../shared/ui/entity-card.tsx';
import { MoreMenu } from '../../shared/ui/more-menu.tsx';

interface Props {
  library: MediaLibrary;
  groupName: string | null;
  creator: string;
  busy: boolean;
  onOpen: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

/** One library in the grid: its name, group, description, and how many files and bytes it holds. */
export function LibraryCard({ library, groupName, creator, busy, onOpen, onEdit, onDelete }: Props) {
  const { t } = useTranslation();
  const items: MenuProps['items'] = library.can_edit
    ? [
        {
          key: 'edit',
          icon: <EditOutlined />,
          label: <span data-testid="library-edit">{t('media.library.edit')}</span>,
        },
        {
          key: 'delete',
          icon: <DeleteOutlined />,
          danger: true,
          label: <span data-testid="library-delete">{t('media.library.delete')}</span>,
        },
      ]
    : [];
  return (
    <EntityCard
      icon={<VideoCameraOutlined />}
      name={library.name}
      nameTestId="library-name"
      tags={
        groupName ? (
          <Tag bordered={false} icon={<FolderOpenOutlined />} style={{ marginInlineEnd: 0 }}>
            {groupName}
          </Tag>
        ) : null
      }
      menu={
        items.length > 0 ? (
          <MoreMenu
            items={items}
            loading={busy}
            label={t('media.more')}
            testId="library-card-menu"
            onSelect={(key) => (key === 'edit' ? onEdit() : onDelete())}
          />
        ) : null
      }
      description={library.description || t('media.library.noDescription')}
      creator={creator}
      creatorTestId="library-creator"
      updatedAt={library.updated_at}
      updatedText={(time) => t('media.updated', { time })}
      onClick={onOpen}
      testId="library-card"
      data={{ 'data-library-id': library.id, 'data-library-name': library.name }}
    >
      <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="library-counts">
        {t('media.library.counts', { count: library.item_count, size: formatBytes(library.total_bytes) })}
      </Typography.Text>
    </EntityCard>
  );
}
