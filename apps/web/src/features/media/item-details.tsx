import { LoadingOutlined, ReloadOutlined } from '@ant-design/icons';
import { type MediaItem, mediaRoutes } from '@athena/contract';
import { App, Button, Card, Descriptions, type DescriptionsProps, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../lib/format.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { RelativeTime } from '../../shared/ui/relative-time.tsx';
import { useUserStore } from '../../stores/user-store.ts';
import { KindTag, StatusTag } from './kind-icon.tsx';
import { dimensionsText, durationText } from './media-meta.ts';
import { refreshMedia } from './media-queries.ts';

type DescriptionsItemType = NonNullable<DescriptionsProps['items']>[number];

/** An item's facts: type, size, length, dimensions, who uploaded it and when, status and preview. */
export function ItemDetails({ item, spaceId }: { item: MediaItem; spaceId: string }) {
  const { t } = useTranslation();
  const userId = useUserStore((s) => s.userinfo?.id ?? null);
  const uploader = item.created_by_name || t('media.item.byMember');
  const duration = durationText(item);
  const dimensions = dimensionsText(item);
  const file: DescriptionsItemType[] = [
    { key: 'kind', label: t('media.item.kindLabel'), children: <KindTag kind={item.kind} /> },
    { key: 'type', label: t('media.item.type'), children: <span data-testid="media-mime">{item.mime_type}</span> },
    { key: 'size', label: t('media.item.size'), children: formatBytes(item.size) },
    ...(duration ? [{ key: 'duration', label: t('media.item.duration'), children: duration }] : []),
    ...(dimensions ? [{ key: 'dims', label: t('media.item.dimensions'), children: dimensions }] : []),
  ];
  // The file's facts end their row, so who-and-when and status-and-preview stay pairs.
  const last = file.at(-1);
  if (last && file.length % 2 === 1) last.span = 'filled';
  const facts = [
    ...file,
    {
      key: 'by',
      label: t('media.item.uploadedBy'),
      children: (
        <span data-testid="media-item-uploader">
          {item.created_by === userId ? t('media.item.byYouName', { name: uploader }) : uploader}
        </span>
      ),
    },
    {
      key: 'time',
      label: t('media.item.uploadedAt'),
      children: <RelativeTime iso={item.created_at} testId="media-item-uploaded" />,
    },
    {
      key: 'status',
      label: t('media.item.statusLabel'),
      children: (
        <Flex vertical gap={2} data-testid="media-item-status" data-status={item.status}>
          {item.status === 'ready' ? t('media.status.ready') : <StatusTag item={item} />}
          {item.status_reason ? <Typography.Text type="secondary">{item.status_reason}</Typography.Text> : null}
        </Flex>
      ),
    },
    { key: 'preview', label: t('media.preview.label'), children: <PreviewState item={item} spaceId={spaceId} /> },
  ];
  return (
    <Card title={t('media.item.details')}>
      <Descriptions column={{ xs: 1, md: 2 }} items={facts} size="small" />
    </Card>
  );
}

/** Whether the preview is made, being made, or impossible (why, and a retry for those who may edit). */
function PreviewState({ item, spaceId }: { item: MediaItem; spaceId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const reprocess = useApiMutation(mediaRoutes.itemReprocess);
  const again = async () => {
    try {
      const fresh = await reprocess.mutateAsync({ id: item.id });
      queryClient.setQueryData(queryKeys.media.item(spaceId, item.id), fresh);
      void message.success(t('media.preview.againStarted'));
      await refreshMedia(spaceId);
    } catch {
      // The failure's notice is already showing.
    }
  };
  return (
    <Flex vertical gap={4} align="flex-start" data-testid="media-item-preview" data-preview={item.preview}>
      {item.preview === 'pending' ? (
        <span>
          <LoadingOutlined style={{ marginInlineEnd: 6 }} />
          {t('media.preview.pending')}
        </span>
      ) : (
        <span>{item.preview === 'ready' ? t('media.preview.ready') : t('media.preview.none')}</span>
      )}
      {item.preview === 'none' && item.preview_reason ? (
        <Typography.Text type="secondary" data-testid="media-item-preview-reason">
          {t(`media.preview.reason.${item.preview_reason}`)}
        </Typography.Text>
      ) : null}
      {/* A type without a preview gets none the second time either. */}
      {item.preview === 'none' && item.preview_reason !== 'unsupported' && item.can_edit && !item.deleted_at ? (
        <Button
          size="small"
          icon={<ReloadOutlined />}
          loading={reprocess.isPending}
          onClick={() => void again()}
          data-testid="media-item-reprocess"
        >
          {t('media.preview.again')}
        </Button>
      ) : null}
    </Flex>
  );
}
