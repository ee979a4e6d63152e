import { type MediaItem, mediaRoutes } from '@athena/contract';
import { App, Button, Form, Modal, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { showErrorNotice } from '../../lib/error-notice.ts';
import { refreshMedia, useLibraries } from './media-queries.ts';

/** Trash with undo, restore, purge (asked first): the writes of one item, with their messages. */
export function useItemCommands(spaceId: string | null) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();

  const restore = async (item: MediaItem) => {
    try {
      await api(mediaRoutes.itemRestore, { id: item.id });
      void message.success(t('media.item.restored', { name: item.name }));
    } catch (error) {
      showErrorNotice(error);
    }
    await refreshMedia(spaceId);
  };

  /** To the trash; the message offers Undo for a while (the trash keeps it anyway). */
  const trash = async (item: MediaItem) => {
    try {
      await api(mediaRoutes.itemDelete, { id: item.id });
    } catch (error) {
      showErrorNotice(error);
      return false;
    }
    const key = `trash-${item.id}`;
    void message.open({
      key,
      type: 'success',
      duration: 8,
      content: (
        <span data-testid="media-trashed">
          {t('media.item.trashed', { name: item.name })}{' '}
          <Button
            type="link"
            size="small"
            data-testid="media-undo"
            onClick={() => {
              message.destroy(key);
              void restore(item);
            }}
          >
            {t('media.item.undo')}
          </Button>
        </span>
      ),
    });
    await refreshMedia(spaceId);
    return true;
  };

  const purge = (item: MediaItem) =>
    modal.confirm({
      title: t('media.item.purgeTitle', { name: item.name }),
      content: t('media.item.purgeText'),
      okText: t('media.item.purgeOk'),
      okButtonProps: { danger: true, 'data-testid': 'media-purge-confirm' },
      cancelText: t('media.cancel'),
      onOk: async () => {
        try {
          await api(mediaRoutes.itemPurge, { id: item.id });
          void message.success(t('media.item.purged', { name: item.name }));
          await refreshMedia(spaceId);
        } catch (error) {
          showErrorNotice(error);
        }
      },
    });

  return { trash, restore, purge };
}

/** Moves an item to another library of the space. */
export function MoveModal({
  spaceId,
  item,
  onClose,
}: {
  spaceId: string;
  item: MediaItem | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const libraries = useLibraries(spaceId, '');
  const [target, setTarget] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const options = (libraries.data ?? [])
    .filter((library) => library.id !== item?.library_id)
    .map((library) => ({ value: library.id, label: library.name }));
  const submit = async () => {
    if (!item || !target) return;
    setSaving(true);
    try {
      await api(mediaRoutes.itemMove, { id: item.id, library_id: target });
      void message.success(t('media.item.moved', { name: item.name }));
      await refreshMedia(spaceId);
      onClose();
    } catch (error) {
      showErrorNotice(error);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={item !== null}
      title={t('media.item.moveTitle', { name: item?.name ?? '' })}
      okText={t('media.item.moveOk')}
      cancelText={t('media.cancel')}
      okButtonProps={{ disabled: !target, 'data-testid': 'media-move-submit' }}
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label={t('media.item.moveTo')}>
          <Select
            value={target}
            onChange={setTarget}
            options={options}
            loading={libraries.isPending}
            notFoundContent={t('media.item.noOtherLibrary')}
            data-testid="media-move-target"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
