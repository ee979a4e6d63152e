import { DeleteOutlined, DragOutlined, RollbackOutlined } from '@ant-design/icons';
import type { MediaItem } from '@athena/contract';
import type { MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { MoreMenu } from '../../shared/ui/more-menu.tsx';

export interface ItemHandlers {
  open: (item: MediaItem) => void;
  move: (item: MediaItem) => void;
  trash: (item: MediaItem) => void;
  restore: (item: MediaItem) => void;
  purge: (item: MediaItem) => void;
}

/** An item's menu: move and delete for a live one, restore and purge in the trash. */
export function ItemMenu({ item, handlers }: { item: MediaItem; handlers: ItemHandlers }) {
  const { t } = useTranslation();
  if (!item.can_edit) return null;
  const items: MenuProps['items'] = item.deleted_at
    ? [
        {
          key: 'restore',
          icon: <RollbackOutlined />,
          label: <span data-testid="media-restore">{t('media.item.restore')}</span>,
        },
        {
          key: 'purge',
          icon: <DeleteOutlined />,
          danger: true,
          label: <span data-testid="media-purge">{t('media.item.purge')}</span>,
        },
      ]
    : [
        { key: 'move', icon: <DragOutlined />, label: <span data-testid="media-move">{t('media.item.move')}</span> },
        {
          key: 'trash',
          icon: <DeleteOutlined />,
          danger: true,
          label: <span data-testid="media-trash">{t('media.item.trash')}</span>,
        },
      ];
  return (
    <MoreMenu
      items={items}
      label={t('media.more')}
      testId="media-item-menu"
      onSelect={(key) => {
        if (key === 'restore') handlers.restore(item);
        if (key === 'purge') handlers.purge(item);
        if (key === 'move') handlers.move(item);
        if (key === 'trash') handlers.trash(item);
      }}
    />
  );
}
