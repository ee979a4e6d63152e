import { AudioOutlined, LoadingOutlined, PictureOutlined, VideoCameraOutlined } from '@ant-design/icons';
import type { ChatHistoryMessage } from '@athena/contract';
import { Flex, Image, theme } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatClock } from '../../lib/format.ts';
import { fitBox, safeUrl } from './media-size.ts';
import { type MediaSource, mediaOf } from './media-source.ts';

type Props = { message: ChatHistoryMessage };
type MediaKind = 'image' | 'video' | 'audio';

/** Why media cannot show: still being fetched, the channel's failure, no address, or it did not load. */
export function useUnavailableText() {
  const { t } = useTranslation();
  return (source: MediaSource, kind: MediaKind | 'file', broken = false): string => {
    if (source.kind === 'pending') return t('chatHistory.thread.media.pending');
    if (source.kind === 'failed') {
      return source.error
        ? t('chatHistory.thread.media.failedBecause', { reason: source.error })
        : t('chatHistory.thread.media.failed');
    }
    if (kind === 'file') return t('chatHistory.thread.file.noLink');
    return broken ? t(`chatHistory.thread.${kind}.broken`) : t(`chatHistory.thread.${kind}.missing`);
  };
}

/** What shows where media cannot: its kind, why, and the address to try in a new tab, if any. */
function MediaUnavailable(props: {
  icon: ReactNode;
  text: string;
  pending: boolean;
  url?: string;
  size: { width: number; height: number };
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Flex
      vertical
      align="center"
      justify="center"
      gap={6}
      data-testid="chat-media-missing"
      style={{
        // Lower than the media would be: a placeholder need not take a picture's room.
        width: Math.max(props.size.width, 160),
        height: Math.min(props.size.height, 120),
        padding: 8,
        borderRadius: 8,
        background: token.colorFillTertiary,
        color: token.colorTextTertiary,
        textAlign: 'center',
        fontSize: 12,
      }}
    >
      <span style={{ fontSize: 24 }}>{props.pending ? <LoadingOutlined /> : props.icon}</span>
      <span>{props.text}</span>
      {props.url ? (
        <a href={props.url} target="_blank" rel="noopener noreferrer">
          {t('chatHistory.thread.openOriginal')}
        </a>
      ) : null}
    </Flex>
  );
}

/** A picture (or sticker): the thumbnail inline, the full picture on click. */
export function ImageMessage({ message }: Props) {
  const { t } = useTranslation();
  const unavailable = useUnavailableText();
  const [broken, setBroken] = useState(false);
  const { payload } = message;
  const source = mediaOf(message);
  const size = fitBox(payload.width, payload.height, 220);
  if (source.kind !== 'ready' || broken) {
    return (
      <MediaUnavailable
        icon={<PictureOutlined />}
        text={unavailable(source, 'image', broken)}
        pending={source.kind === 'pending'}
        url={source.kind === 'ready' ? source.url : undefined}
        size={size}
      />
    );
  }
  // A sender may give a smaller picture for the thread; our stored copy is the picture itself.
  const thumb = message.media_state === 'stored' ? source.url : (safeUrl(payload.thumb_url) ?? source.url);
  return (
    <span data-testid="chat-image" style={{ display: 'inline-block', lineHeight: 0 }}>
      <Image
        src={thumb}
        alt={t('chatHistory.kinds.image')}
        width={size.width}
        height={size.height}
        style={{ objectFit: 'cover', borderRadius: 8 }}
        preview={{ src: source.url }}
        onError={() => setBroken(true)}
      />
    </span>
  );
}

/** A video with its cover, played in place. */
export function VideoMessage({ message }: Props) {
  const unavailable = useUnavailableText();
  const [broken, setBroken] = useState(false);
  const { payload } = message;
  const source = mediaOf(message);
  const size = fitBox(payload.width, payload.height, 260);
  const clock = payload.duration_s === undefined ? null : formatClock(payload.duration_s);
  if (source.kind !== 'ready' || broken) {
    const text = unavailable(source, 'video', broken);
    return (
      <MediaUnavailable
        icon={<VideoCameraOutlined />}
        text={clock ? `${text} · ${clock}` : text}
        pending={source.kind === 'pending'}
        url={source.kind === 'ready' ? source.url : undefined}
        size={size}
      />
    );
  }
  return (
    <Flex vertical gap={2}>
      {/* biome-ignore lint/a11y/useMediaCaption: customers' videos come without captions. */}
      <video
        controls
        preload="none"
        src={source.url}
        poster={safeUrl(payload.thumb_url)}
        onError={() => setBroken(true)}
        style={{ ...size, borderRadius: 8, background: '#000', display: 'block' }}
        data-testid="chat-video"
      />
      {clock ? <span style={{ fontSize: 12, opacity: 0.65 }}>{clock}</span> : null}
    </Flex>
  );
}

/** A voice message: the player and its length. */
export function AudioMessage({ message }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const unavailable = useUnavailableText();
  const [broken, setBroken] = useState(false);
  const source = mediaOf(message);
  const duration = message.payload.duration_s === undefined ? null : formatClock(message.payload.duration_s);
  const playable = source.kind === 'ready' && !broken;
  return (
    <Flex align="center" gap={8} data-testid="chat-audio">
      {source.kind === 'pending' ? <LoadingOutlined /> : <AudioOutlined style={{ color: token.colorTextSecondary }} />}
      {playable ? (
        // biome-ignore lint/a11y/useMediaCaption: voice messages come without captions.
        <audio
          controls
          preload="none"
          src={source.url}
          onError={() => setBroken(true)}
          style={{ height: 32, maxWidth: 240 }}
        />
      ) : (
        <span style={{ color: token.colorTextTertiary }}>{unavailable(source, 'audio', broken)}</span>
      )}
      {/* The player shows its own length; the channel's figure is for a voice it cannot play. */}
      {duration && !playable ? <span style={{ color: token.colorTextSecondary, fontSize: 12 }}>{duration}</span> : null}
      {source.kind === 'ready' && broken ? (
        <a href={source.url} target="_blank" rel="noopener noreferrer">
          {t('chatHistory.thread.openOriginal')}
        </a>
      ) : null}
    </Flex>
  );
}
