import {
  AppstoreOutlined,
  DownloadOutlined,
  EnvironmentOutlined,
  FileExcelOutlined,
  FileImageOutlined,
  FileOutlined,
  FilePdfOutlined,
  FileWordOutlined,
  FileZipOutlined,
  LinkOutlined,
  PlayCircleOutlined,
} from '@ant-design/icons';
import type { ChatHistoryMessage } from '@athena/contract';
import { Flex, Tag, theme } from 'antd';
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../lib/format.ts';
import { hostOf, mapUrlOf, safeUrl } from './media-size.ts';
import { mediaOf } from './media-source.ts';
import { useUnavailableText } from './message-media.tsx';

type Props = { message: ChatHistoryMessage };

const clamp = (lines: number): CSSProperties => ({
  display: '-webkit-box',
  WebkitLineClamp: lines,
  WebkitBoxOrient: 'vertical',
  overflow: 'hidden',
  wordBreak: 'break-word',
});

/**
 * The frame of every card message: its body, an optional footer naming what it is, and — with an
 * address — the whole card as a link that opens in a new tab.
 */
function Card({
  children,
  footer,
  href,
  testId,
}: {
  children: ReactNode;
  footer?: ReactNode;
  href?: string;
  testId: string;
}) {
  const { token } = theme.useToken();
  const style: CSSProperties = {
    display: 'block',
    width: 260,
    maxWidth: '100%',
    borderRadius: 10,
    border: `1px solid ${token.colorBorderSecondary}`,
    background: token.colorBgContainer,
    color: token.colorText,
    overflow: 'hidden',
  };
  const inner = (
    <>
      <div style={{ padding: '10px 12px' }}>{children}</div>
      {footer ? (
        <div
          style={{
            padding: '4px 12px',
            borderTop: `1px solid ${token.colorBorderSecondary}`,
            fontSize: 12,
            color: token.colorTextTertiary,
          }}
        >
          {footer}
        </div>
      ) : null}
    </>
  );
  return href ? (
    <a href={href} target="_blank" rel="noopener noreferrer" style={style} data-testid={testId}>
      {inner}
    </a>
  ) : (
    <div style={style} data-testid={testId}>
      {inner}
    </div>
  );
}

/** A card's picture; `ratio` is its height over its width. */
function Thumb({ url, size, ratio = 1 }: { url?: string; size: number; ratio?: number }) {
  const { token } = theme.useToken();
  const src = safeUrl(url);
  if (!src) return null;
  return (
    <img
      src={src}
      alt=""
      style={{
        width: size,
        height: Math.round(size * ratio),
        objectFit: 'cover',
        borderRadius: 6,
        flex: 'none',
        background: token.colorFillTertiary,
      }}
    />
  );
}

const FILE_ICONS: [RegExp, ReactNode][] = [
  [/\.pdf$/i, <FilePdfOutlined key="pdf" style={{ color: '#f5222d' }} />],
  [/\.(xlsx?|csv)$/i, <FileExcelOutlined key="xls" style={{ color: '#52c41a' }} />],
  [/\.docx?$/i, <FileWordOutlined key="doc" style={{ color: '#1677ff' }} />],
  [/\.(zip|rar|7z|gz|tar)$/i, <FileZipOutlined key="zip" style={{ color: '#faad14' }} />],
  [/\.(png|jpe?g|gif|webp|bmp|svg)$/i, <FileImageOutlined key="img" style={{ color: '#13c2c2' }} />],
];

/** A file: its name, size and a download link (or why there is none). */
export function FileCard({ message }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const unavailable = useUnavailableText();
  const { file_name: name, file_size: size } = message.payload;
  const source = mediaOf(message);
  const icon = FILE_ICONS.find(([pattern]) => name && pattern.test(name))?.[1] ?? <FileOutlined />;
  return (
    <Card testId="chat-file">
      <Flex gap={10} align="center">
        <span style={{ fontSize: 32, lineHeight: 1 }}>{icon}</span>
        <Flex vertical style={{ minWidth: 0, flex: 1 }}>
          <span style={{ ...clamp(2), fontWeight: 500 }} title={name}>
            {name || t('chatHistory.thread.file.unnamed')}
          </span>
          <span style={{ fontSize: 12, color: token.colorTextTertiary }}>
            {size === undefined ? t('chatHistory.thread.file.unknownSize') : formatBytes(size)}
          </span>
        </Flex>
      </Flex>
      <div style={{ marginTop: 8, fontSize: 12 }}>
        {source.kind === 'ready' ? (
          <a
            href={source.url}
            target="_blank"
            rel="noopener noreferrer"
            download={name}
            data-testid="chat-file-download"
          >
            <DownloadOutlined /> {t('chatHistory.thread.file.download')}
          </a>
        ) : (
          <span style={{ color: token.colorTextTertiary }}>{unavailable(source, 'file')}</span>
        )}
      </div>
    </Card>
  );
}

/** A link card (also a person card, a shop product): title, description, picture. */
export function LinkCard({ message }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { title, description, thumb_url: thumb, url } = message.payload;
  const href = safeUrl(url);
  return (
    <Card
      href={href}
      testId="chat-link"
      footer={
        <>
          <LinkOutlined /> {(href && hostOf(href)) || t('chatHistory.thread.link.noLink')}
        </>
      }
    >
      <div style={{ ...clamp(2), fontWeight: 500, marginBottom: 4 }}>
        {title || message.content || t('chatHistory.thread.link.untitled')}
      </div>
      <Flex gap={8} justify="space-between">
        <span style={{ ...clamp(3), fontSize: 12, color: token.colorTextSecondary }}>{description}</span>
        <Thumb url={thumb} size={48} />
      </Flex>
    </Card>
  );
}

/** A place: its name and address, coordinates and a map link. */
export function LocationCard({ message }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { title, address, latitude, longitude } = message.payload;
  const located = latitude !== undefined && longitude !== undefined;
  return (
    <Card
      testId="chat-location"
      href={located ? mapUrlOf(latitude, longitude) : undefined}
      footer={located ? t('chatHistory.thread.location.openMap') : t('chatHistory.thread.location.noCoordinates')}
    >
      <Flex gap={10} align="flex-start">
        <EnvironmentOutlined style={{ fontSize: 22, color: token.colorError, marginTop: 2 }} />
        <Flex vertical style={{ minWidth: 0 }}>
          <span style={{ ...clamp(2), fontWeight: 500 }}>
            {title || address || t('chatHistory.thread.location.unnamed')}
          </span>
          {title && address ? (
            <span style={{ ...clamp(2), fontSize: 12, color: token.colorTextSecondary }}>{address}</span>
          ) : null}
          {located ? (
            <span style={{ fontSize: 12, color: token.colorTextTertiary }}>
              {latitude.toFixed(5)}, {longitude.toFixed(5)}
            </span>
          ) : null}
        </Flex>
      </Flex>
    </Card>
  );
}

/** A mini program: which app, the page's title and cover, and its path on hover. */
export function MiniProgramCard({ message }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { app_name: app, title, thumb_url: thumb, page_path: path } = message.payload;
  return (
    <Card
      testId="chat-mini-program"
      footer={
        <span title={path}>
          <AppstoreOutlined /> {t('chatHistory.thread.miniProgram')}
        </span>
      }
    >
      <Flex align="center" gap={6} style={{ fontSize: 12, color: token.colorTextSecondary, marginBottom: 4 }}>
        <AppstoreOutlined style={{ color: token.colorSuccess }} />
        <span>{app || t('chatHistory.thread.miniProgram')}</span>
      </Flex>
      <div style={{ ...clamp(2), marginBottom: 6 }}>
        {title || message.content || t('chatHistory.thread.link.untitled')}
      </div>
      {safeUrl(thumb) ? <Thumb url={thumb} size={236} ratio={0.8} /> : null}
    </Card>
  );
}

/** A WeChat Channels post, account card or live stream. */
export function ChannelsCard({ message, live }: Props & { live: boolean }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { title, description, thumb_url: thumb, url } = message.payload;
  return (
    <Card
      testId={live ? 'chat-channels-live' : 'chat-channels'}
      href={safeUrl(url)}
      footer={
        <>
          <PlayCircleOutlined /> {t('chatHistory.thread.channels')}
        </>
      }
    >
      <Flex gap={10}>
        <Thumb url={thumb} size={64} ratio={4 / 3} />
        <Flex vertical gap={4} style={{ minWidth: 0 }}>
          {live ? (
            <Tag color="red" variant="solid" style={{ width: 'fit-content', marginInlineEnd: 0 }}>
              {t('chatHistory.thread.live')}
            </Tag>
          ) : null}
          <span style={{ ...clamp(2), fontWeight: 500 }}>
            {title || message.content || t('chatHistory.thread.link.untitled')}
          </span>
          {description ? (
            <span style={{ ...clamp(2), fontSize: 12, color: token.colorTextSecondary }}>{description}</span>
          ) : null}
        </Flex>
      </Flex>
    </Card>
  );
}
