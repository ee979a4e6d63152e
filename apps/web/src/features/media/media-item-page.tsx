import { ArrowLeftOutlined, DeleteOutlined, DownloadOutlined, RollbackOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Flex, Skeleton, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useGo } from '../../lib/navigation.ts';
import { useUserStore } from '../../stores/user-store.ts';
import { AddToKnowledge } from './add-to-knowledge.tsx';
import { CoverSection } from './cover-section.tsx';
import { DescriptionEditor } from './description-editor.tsx';
import { useItemCommands } from './item-commands.tsx';
import { ItemDetails } from './item-details.tsx';
import { LoadFailed } from './load-failed.tsx';
import { MediaPlayer } from './media-player.tsx';
import { useItemUrl, useMediaItem } from './media-queries.ts';

/** /medialib/media/:mediaId — one file: play or view it, download it, its facts and description. */
export function MediaItemPage() {
  const { t } = useTranslation();
  const go = useGo();
  const { mediaId = '' } = useParams();
  const spaceId = useUserStore((s) => s.team?.id ?? null);
  const playing = useUserStore((s) => s.isPlayingVideo);
  const item = useMediaItem(spaceId, mediaId, playing);
  const live = item.data?.status === 'ready' && !item.data.deleted_at;
  const url = useItemUrl(spaceId, mediaId, live);
  const commands = useItemCommands(spaceId);

  if (item.isError) {
    return <LoadFailed error={item.error} onBack={() => go('medialib')} onRetry={() => void item.refetch()} />;
  }
  if (item.isPending || !spaceId) {
    return (
      <Card data-testid="media-item-loading">
        <Skeleton active paragraph={{ rows: 8 }} />
      </Card>
    );
  }
  const data = item.data;
  const backToLibrary = () => go('medialib', { query: { library: data.library_id } });
  return (
    <Flex vertical gap={16} data-testid="page-mediaItem" data-item-id={data.id} data-playing={playing}>
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Flex align="center" gap={8} style={{ minWidth: 0, flex: 1 }}>
          <Button
            type="text"
            icon={<ArrowLeftOutlined />}
            onClick={backToLibrary}
            aria-label={t('media.item.backToLibrary')}
            data-testid="media-item-back"
          />
          <Typography.Title level={3} style={{ margin: 0 }} ellipsis={{ tooltip: data.name }} data-testid="page-title">
            {data.name}
          </Typography.Title>
        </Flex>
        <Flex gap={8}>
          {url.data ? (
            <Button icon={<DownloadOutlined />} href={url.data.url} download={data.name} data-testid="media-download">
              {t('media.item.download')}
            </Button>
          ) : null}
          <AddToKnowledge item={data} spaceId={spaceId} />
          {data.can_edit && !data.deleted_at ? (
            <Button
              danger
              icon={<DeleteOutlined />}
              onClick={() => void commands.trash(data)}
              data-testid="media-item-trash"
            >
              {t('media.item.trash')}
            </Button>
          ) : null}
          {data.can_edit && data.deleted_at ? (
            <Button
              icon={<RollbackOutlined />}
              onClick={() => void commands.restore(data)}
              data-testid="media-item-restore"
            >
              {t('media.item.restore')}
            </Button>
          ) : null}
        </Flex>
      </Flex>
      {data.deleted_at ? (
        <Alert
          type="warning"
          showIcon
          title={t('media.item.inTrash', { time: dayjs(data.deleted_at).format('YYYY-MM-DD HH:mm') })}
          data-testid="media-item-in-trash"
        />
      ) : null}
      {url.isError ? <Alert type="error" showIcon title={t('media.item.urlFailed')} /> : null}
      <Card>
        {data.deleted_at ? (
          <Typography.Text type="secondary">{t('media.item.trashNoPreview')}</Typography.Text>
        ) : (
          <MediaPlayer item={data} url={url.data?.url ?? null} />
        )}
      </Card>
      <ItemDetails item={data} spaceId={spaceId} />
      <CoverSection item={data} spaceId={spaceId} />
      <Card title={t('media.item.description')}>
        <DescriptionEditor key={data.updated_at} item={data} spaceId={spaceId} />
      </Card>
    </Flex>
  );
}
