import { LoadingOutlined } from '@ant-design/icons';
import type { MediaItem } from '@athena/contract';
import { Flex, Tooltip, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { KindIcon } from './kind-icon.tsx';
import { durationText } from './media-meta.ts';

type ThumbItem = Pick<MediaItem, 'kind' | 'preview' | 'preview_reason' | 'thumbnail_url' | 'duration_ms'>;

/**
 * An item's picture, filling the box its parent sizes (so nothing moves when it loads): the
 * thumbnail (the cover when one is set), else the kind's icon — with "making preview…" while the
 * server works on it, and the reason on hover when there is none. `compact` is the list row's
 * small box: the spinner alone, the words in its title. Video and audio carry their length.
 */
export function ItemThumb({
  item,
  iconSize,
  compact = false,
}: {
  item: ThumbItem;
  iconSize: number;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  // A signed URL that stopped working (it expired in a page left open) falls back to the icon.
  const [broken, setBroken] = useState<string | null>(null);
  const url = item.thumbnail_url && item.thumbnail_url !== broken ? item.thumbnail_url : null;
  const duration = compact ? null : durationText(item);
  const pending = item.preview === 'pending';
  const title = url
    ? undefined
    : pending
      ? t('media.preview.pending')
      : item.preview === 'none'
        ? item.preview_reason
          ? t(`media.preview.reason.${item.preview_reason}`)
          : t('media.preview.none')
        : undefined;

  const box = (
    <Flex
      vertical
      align="center"
      justify="center"
      gap={4}
      data-testid="media-item-thumb"
      data-preview={item.preview}
      style={{
        width: '100%',
        height: '100%',
        position: 'relative',
        overflow: 'hidden',
        borderRadius: compact ? 4 : 8,
        background: token.colorFillTertiary,
      }}
    >
      {url ? (
        <img
          src={url}
          alt=""
          loading="lazy"
          decoding="async"
          draggable={false}
          onError={() => setBroken(url)}
          data-testid="media-thumb"
          style={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
        />
      ) : (
        <KindIcon kind={item.kind} style={{ fontSize: iconSize, color: token.colorTextTertiary }} />
      )}
      {!url && pending && compact ? (
        <LoadingOutlined
          data-testid="media-thumb-pending"
          style={{ position: 'absolute', right: 2, bottom: 2, fontSize: 10, color: token.colorTextTertiary }}
        />
      ) : null}
      {!url && pending && !compact ? (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="media-thumb-pending">
          <LoadingOutlined style={{ marginInlineEnd: 4 }} />
          {t('media.preview.pending')}
        </Typography.Text>
      ) : null}
      {duration ? (
        <span
          data-testid="media-thumb-duration"
          style={{
            position: 'absolute',
            right: 6,
            bottom: 6,
            padding: '0 6px',
            borderRadius: 4,
            background: 'rgba(0, 0, 0, 0.62)',
            color: '#fff',
            fontSize: 12,
            lineHeight: '18px',
            fontVariantNumeric: 'tabular-nums',
          }}
        >
          {duration}
        </span>
      ) : null}
    </Flex>
  );
  return title ? (
    <Tooltip title={title}>
      <div role="img" aria-label={title} style={{ width: '100%', height: '100%' }}>
        {box}
      </div>
    </Tooltip>
  ) : (
    box
  );
}
