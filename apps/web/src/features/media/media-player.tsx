import type { MediaItem } from '@athena/contract';
import { Flex, Image, Skeleton, Typography, theme } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useUserStore } from '../../stores/user-store.ts';
import { KindIcon } from './kind-icon.tsx';

/**
 * The file itself from its signed URL: a player with seeking for video and audio (the server
 * answers range requests; the video's poster and the audio's waveform are the item's thumbnail,
 * or its cover), the image full size, and for anything else its thumbnail (a document's first
 * page) or the kind's icon.
 */
export function MediaPlayer({ item, url }: { item: MediaItem; url: string | null }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const setPlaying = useUserStore((s) => s.setPlayingVideo);
  // Whatever stops playback, leaving the page must not leave the flag set.
  useEffect(() => () => setPlaying(false), [setPlaying]);

  if (item.status !== 'ready') {
    return (
      <Placeholder>
        <KindIcon kind={item.kind} style={{ fontSize: 56, color: token.colorTextTertiary }} />
        <Typography.Text type="secondary">
          {item.status === 'processing' ? t('media.item.processingText') : t('media.item.failedText')}
        </Typography.Text>
      </Placeholder>
    );
  }
  if (!url) {
    return (
      <Placeholder>
        <Skeleton.Node active style={{ width: 320, height: 180 }} />
      </Placeholder>
    );
  }
  const playing = {
    onPlay: () => setPlaying(true),
    onPause: () => setPlaying(false),
    onEnded: () => setPlaying(false),
    onError: () => setPlaying(false),
  };
  if (item.kind === 'video') {
    return (
      <video
        src={url}
        controls
        preload="metadata"
        poster={item.thumbnail_url ?? undefined}
        style={{ width: '100%', maxHeight: '70vh', background: '#000', borderRadius: 8 }}
        data-testid="media-video"
        {...playing}
      />
    );
  }
  if (item.kind === 'audio') {
    return (
      <Placeholder>
        <Picture item={item} />
        <audio
          src={url}
          controls
          preload="metadata"
          style={{ width: '100%', maxWidth: 560 }}
          data-testid="media-audio"
          {...playing}
        />
      </Placeholder>
    );
  }
  if (item.kind === 'image') {
    return (
      <Flex justify="center" style={{ background: token.colorFillQuaternary, borderRadius: 8, padding: 12 }}>
        <Image
          src={url}
          alt={item.name}
          style={{ maxWidth: '100%', maxHeight: '70vh', objectFit: 'contain' }}
          data-testid="media-image"
        />
      </Flex>
    );
  }
  return (
    <Placeholder>
      <Picture item={item} />
      <Typography.Text type="secondary">{t('media.item.noPreview')}</Typography.Text>
    </Placeholder>
  );
}

/** The thumbnail (an audio's waveform, a document's first page, or the cover) or the kind's icon. */
function Picture({ item }: { item: MediaItem }) {
  const { token } = theme.useToken();
  if (!item.thumbnail_url) {
    return <KindIcon kind={item.kind} style={{ fontSize: 56, color: token.colorTextTertiary }} />;
  }
  return (
    <img
      src={item.thumbnail_url}
      alt=""
      decoding="async"
      data-testid="media-player-thumb"
      style={{ width: '100%', maxWidth: 560, maxHeight: 200, objectFit: 'contain', borderRadius: 8 }}
    />
  );
}

function Placeholder({ children }: { children: React.ReactNode }) {
  const { token } = theme.useToken();
  return (
    <Flex
      vertical
      align="center"
      justify="center"
      gap={12}
      style={{ minHeight: 220, background: token.colorFillQuaternary, borderRadius: 8, padding: 24 }}
      data-testid="media-placeholder"
    >
      {children}
    </Flex>
  );
}
