import { type MediaGroup, type MediaLibrary, mediaRoutes } from '@athena/contract';
import { App } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../lib/format.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { refreshMedia } from './media-queries.ts';

/** Deleting libraries and groups, each after a confirmation that says what goes with it. */
export function useLibraryCommands(spaceId: string | null) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [busyId, setBusyId] = useState<string | null>(null);
  const deleteLibrary = useApiMutation(mediaRoutes.libraryDelete);
  const deleteGroup = useApiMutation(mediaRoutes.groupDelete);

  const remove = (library: MediaLibrary) =>
    modal.confirm({
      title: t('media.library.deleteTitle', { name: library.name }),
      content: t('media.library.deleteText', { count: library.item_count, size: formatBytes(library.total_bytes) }),
      okText: t('media.library.deleteOk'),
      okButtonProps: { danger: true, 'data-testid': 'library-delete-confirm' },
      cancelText: t('media.cancel'),
      onOk: async () => {
        setBusyId(library.id);
        try {
          await deleteLibrary.mutateAsync({ id: library.id });
          void message.success(t('media.library.deleted', { name: library.name }));
          await refreshMedia(spaceId);
        } catch {
          // The failure's notice is already showing.
        } finally {
          setBusyId(null);
        }
      },
    });

  /** Resolves true once the group is gone (its libraries stay, ungrouped). */
  const removeGroup = (group: MediaGroup) =>
    new Promise<boolean>((resolve) => {
      modal.confirm({
        title: t('media.groups.deleteTitle', { name: group.name }),
        content: t('media.groups.deleteText', { count: group.library_count }),
        okText: t('media.groups.deleteOk'),
        okButtonProps: { danger: true, 'data-testid': 'media-group-delete-confirm' },
        cancelText: t('media.cancel'),
        onCancel: () => resolve(false),
        onOk: async () => {
          try {
            await deleteGroup.mutateAsync({ id: group.id });
            void message.success(t('media.groups.deleted', { name: group.name }));
            await refreshMedia(spaceId);
            resolve(true);
          } catch {
            resolve(false);
          }
        },
      });
    });

  return { remove, removeGroup, busyId };
}
