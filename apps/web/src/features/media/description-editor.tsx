import { EditOutlined } from '@ant-design/icons';
import { MEDIA_DESCRIPTION_MAX, type MediaItem, mediaRoutes } from '@athena/contract';
import { App, Button, Flex, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { showErrorNotice } from '../../lib/error-notice.ts';
import { refreshMedia } from './media-queries.ts';

/** An item's description, edited in place by those who may. */
export function DescriptionEditor({ item, spaceId }: { item: MediaItem; spaceId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [draft, setDraft] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  if (draft === null) {
    return (
      <Flex gap={8} align="flex-start">
        <Typography.Paragraph
          type={item.description ? undefined : 'secondary'}
          style={{ margin: 0, whiteSpace: 'pre-wrap', flex: 1 }}
          data-testid="media-description"
        >
          {item.description || t('media.item.noDescription')}
        </Typography.Paragraph>
        {item.can_edit ? (
          <Button
            size="small"
            icon={<EditOutlined />}
            onClick={() => setDraft(item.description)}
            data-testid="media-description-edit"
          >
            {t('media.item.editDescription')}
          </Button>
        ) : null}
      </Flex>
    );
  }
  const save = async () => {
    setSaving(true);
    try {
      await api(mediaRoutes.itemUpdate, { id: item.id, description: draft });
      void message.success(t('media.item.descriptionSaved'));
      await refreshMedia(spaceId);
      setDraft(null);
    } catch (error) {
      showErrorNotice(error);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Flex vertical gap={8}>
      <Input.TextArea
        autoFocus
        rows={4}
        value={draft}
        maxLength={MEDIA_DESCRIPTION_MAX}
        showCount
        onChange={(event) => setDraft(event.target.value)}
        data-testid="media-description-input"
      />
      <Flex gap={8} justify="flex-end">
        <Button onClick={() => setDraft(null)} disabled={saving}>
          {t('media.cancel')}
        </Button>
        <Button type="primary" loading={saving} onClick={() => void save()} data-testid="media-description-save">
          {t('media.save')}
        </Button>
      </Flex>
    </Flex>
  );
}
