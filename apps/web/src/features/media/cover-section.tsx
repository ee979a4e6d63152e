import { DeleteOutlined, LoadingOutlined, PictureOutlined, UploadOutlined } from '@ant-design/icons';
import { type MediaItem, mediaAuxImageUpload, mediaRoutes } from '@athena/contract';
import { Alert, App, Button, Card, Flex, Spin, Typography, theme } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { upload } from '../../lib/upload-client.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { useImageUpload } from '../../shared/hooks/use-image-upload.ts';
import { COVER_IMAGE } from './media-meta.ts';
import { refreshMedia } from './media-queries.ts';

const WIDTH = 192;
const HEIGHT = 120;

/**
 * The item's cover (auxiliary image), shown instead of the generated thumbnail: the current one,
 * and for those who may edit, set (JPEG or PNG up to 10 MB, checked here first) and remove.
 */
export function CoverSection({ item, spaceId }: { item: MediaItem; spaceId: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const input = useRef<HTMLInputElement>(null);
  const clear = useApiMutation(mediaRoutes.itemAuxImageClear);
  const editable = item.can_edit && !item.deleted_at;

  const show = async (fresh: MediaItem, text: string) => {
    queryClient.setQueryData(queryKeys.media.item(spaceId, item.id), fresh);
    void message.success(text);
    await refreshMedia(spaceId);
  };

  const { preview, uploading, error, setError, choose } = useImageUpload(COVER_IMAGE, async (file, type) => {
    const fresh = await upload(mediaAuxImageUpload, file, { query: { id: item.id }, contentType: type }).promise;
    await show(fresh, t('media.cover.saved'));
  });

  const remove = async () => {
    setError(null);
    try {
      await show(await clear.mutateAsync({ id: item.id }), t('media.cover.removed'));
    } catch {
      // The failure's notice is already showing.
    }
  };

  if (!editable && !item.has_aux_image) return null;
  const shown = preview ?? (item.has_aux_image ? item.thumbnail_url : null);
  return (
    <Card title={t('media.cover.title')} data-testid="media-cover" data-has-cover={item.has_aux_image}>
      <Flex gap={20} align="flex-start" wrap>
        <Spin spinning={uploading} indicator={<LoadingOutlined />}>
          <Flex
            align="center"
            justify="center"
            vertical
            gap={4}
            style={{
              width: WIDTH,
              height: HEIGHT,
              borderRadius: 8,
              overflow: 'hidden',
              background: token.colorFillQuaternary,
              border: shown ? undefined : `1px dashed ${token.colorBorder}`,
            }}
          >
            {shown ? (
              <img
                src={shown}
                alt={t('media.cover.alt', { name: item.name })}
                data-testid="media-cover-image"
                style={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
              />
            ) : (
              <>
                <PictureOutlined style={{ fontSize: 28, color: token.colorTextTertiary }} />
                <Typography.Text type="secondary" data-testid="media-cover-none">
                  {t('media.cover.none')}
                </Typography.Text>
              </>
            )}
          </Flex>
        </Spin>
        {editable ? (
          <Flex vertical gap={10} style={{ flex: 1, minWidth: 220 }}>
            <Typography.Text type="secondary">{t('media.cover.hint')}</Typography.Text>
            <Flex gap={8} wrap>
              <Button
                icon={<UploadOutlined />}
                loading={uploading}
                disabled={clear.isPending}
                onClick={() => input.current?.click()}
                data-testid="media-cover-set"
              >
                {item.has_aux_image ? t('media.cover.replace') : t('media.cover.set')}
              </Button>
              {item.has_aux_image ? (
                <Button
                  icon={<DeleteOutlined />}
                  loading={clear.isPending}
                  disabled={uploading}
                  onClick={() => void remove()}
                  data-testid="media-cover-remove"
                >
                  {t('media.cover.remove')}
                </Button>
              ) : null}
            </Flex>
            {error ? (
              <Alert type="error" showIcon title={error} data-testid="media-cover-error" style={{ maxWidth: 420 }} />
            ) : null}
            <input
              ref={input}
              type="file"
              accept=".jpg,.jpeg,.png,image/jpeg,image/png"
              hidden
              data-testid="media-cover-input"
              onChange={(event) => {
                void choose(event.target.files?.[0]);
                // The same file may be chosen again after fixing a problem.
                event.target.value = '';
              }}
            />
          </Flex>
        ) : null}
      </Flex>
    </Card>
  );
}
