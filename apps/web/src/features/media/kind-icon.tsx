import {
  AudioOutlined,
  FileImageOutlined,
  FileOutlined,
  FileTextOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import type { MediaItem, MediaKind } from '@athena/contract';
import { Tag } from 'antd';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';

const ICONS: Record<MediaKind, typeof FileOutlined> = {
  video: VideoCameraOutlined,
  audio: AudioOutlined,
  image: FileImageOutlined,
  document: FileTextOutlined,
  other: FileOutlined,
};
const COLORS: Record<MediaKind, string> = {
  video: 'purple',
  audio: 'cyan',
  image: 'green',
  document: 'blue',
  other: 'default',
};

/** A kind's icon: what stands where a thumbnail will be once the server makes them. */
export function KindIcon({ kind, style }: { kind: MediaKind; style?: CSSProperties }) {
  const Icon = ICONS[kind];
  return <Icon style={style} />;
}

export function KindTag({ kind }: { kind: MediaKind }) {
  const { t } = useTranslation();
  return (
    <Tag bordered={false} color={COLORS[kind]} style={{ marginInlineEnd: 0 }} data-testid="media-kind" data-kind={kind}>
      {t(`media.kind.${kind}`)}
    </Tag>
  );
}

/** Processing and failed items say so; ready ones say nothing. */
export function StatusTag({ item }: { item: Pick<MediaItem, 'status'> }) {
  const { t } = useTranslation();
  if (item.status === 'ready') return null;
  return (
    <Tag
      bordered={false}
      color={item.status === 'failed' ? 'error' : 'processing'}
      style={{ marginInlineEnd: 0 }}
      data-testid="media-status"
    >
      {t(`media.status.${item.status}`)}
    </Tag>
  );
}
