import type { MediaItem } from '@athena/contract';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Card, Flex, Grid, Typography, theme } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../lib/format.ts';
import { type ItemHandlers, ItemMenu } from './item-actions.tsx';
import { ItemThumb } from './item-thumb.tsx';
import { KindTag, StatusTag } from './kind-icon.tsx';
import { dimensionsText, durationText } from './media-meta.ts';

const ROW = 56;
const TILE_MIN_WIDTH = 180;
/** Under the picture: padding, the name and the facts line. */
const TILE_TEXT = 82;
/** Pictures are 16:10 whatever the column width, so a tile's height is known before anything loads. */
const THUMB_RATIO = 10 / 16;
const GAP = 12;
/** Fills the window under the page's head; the list scrolls inside it, so only visible rows exist. */
const VIEWPORT = { height: 'max(360px, calc(100vh - 330px))', overflow: 'auto', contain: 'strict' } as const;

interface Props {
  items: MediaItem[];
  /** More pages on the server: the next loads when the list nears its end. */
  hasMore: boolean;
  loadMore: () => void;
  handlers: ItemHandlers;
  /** The indexes of the first and last item on screen (overscan included), as they change. */
  onRange: (first: number, last: number) => void;
}

function useNearEnd(lastIndex: number | undefined, count: number, hasMore: boolean, loadMore: () => void) {
  useEffect(() => {
    if (hasMore && lastIndex !== undefined && lastIndex >= count - 5) loadMore();
  }, [lastIndex, count, hasMore, loadMore]);
}

function useReportRange(first: number, last: number, onRange: Props['onRange']) {
  useEffect(() => onRange(first, last), [first, last, onRange]);
}

/** The list view: one row per item, virtualised (10 000 items keep only the visible rows in the page). */
export function ItemList({ items, hasMore, loadMore, handlers, onRange }: Props) {
  // On narrower screens the name keeps its room: the time goes first, then length and dimensions.
  const screens = Grid.useBreakpoint();
  const columns = { time: Boolean(screens.xl), facts: Boolean(screens.lg), uploader: Boolean(screens.md) };
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW,
    overscan: 8,
  });
  const rows = virtual.getVirtualItems();
  const last = Math.min(rows.at(-1)?.index ?? -1, items.length - 1);
  useNearEnd(rows.at(-1)?.index, items.length, hasMore, loadMore);
  useReportRange(rows[0]?.index ?? 0, last, onRange);
  return (
    <Card styles={{ body: { padding: 0 } }}>
      <div ref={scroller} style={VIEWPORT} data-testid="media-list">
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {rows.map((row) => {
            const item = items[row.index];
            return item ? (
              <ListRow key={item.id} item={item} top={row.start} handlers={handlers} columns={columns} />
            ) : null;
          })}
        </div>
      </div>
    </Card>
  );
}

interface RowProps {
  item: MediaItem;
  top: number;
  handlers: ItemHandlers;
  columns: { time: boolean; facts: boolean; uploader: boolean };
}

function ListRow({ item, top, handlers, columns }: RowProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const facts = [durationText(item), dimensionsText(item)].filter(Boolean).join(' · ');
  return (
    <Flex
      align="center"
      gap={12}
      onClick={() => handlers.open(item)}
      data-testid="media-item"
      data-item-id={item.id}
      data-name={item.name}
      style={{
        position: 'absolute',
        top: 0,
        left: 0,
        right: 0,
        height: ROW,
        transform: `translateY(${top}px)`,
        padding: '0 16px',
        borderBottom: `1px solid ${token.colorSplit}`,
        cursor: 'pointer',
      }}
    >
      <div style={{ width: 64, height: 40, flex: 'none' }}>
        <ItemThumb item={item} iconSize={18} compact />
      </div>
      <Typography.Text ellipsis={{ tooltip: item.name }} style={{ flex: 1, minWidth: 0 }} data-testid="media-item-name">
        {item.name}
      </Typography.Text>
      <StatusTag item={item} />
      <KindTag kind={item.kind} />
      {columns.facts ? (
        <Typography.Text
          type="secondary"
          ellipsis={{ tooltip: facts }}
          style={{ width: 150, textAlign: 'end', fontVariantNumeric: 'tabular-nums' }}
          data-testid="media-item-facts"
        >
          {facts}
        </Typography.Text>
      ) : null}
      {columns.uploader ? (
        <Typography.Text
          type="secondary"
          ellipsis={{ tooltip: item.created_by_name }}
          style={{ width: 110, textAlign: 'end' }}
          data-testid="media-item-uploader"
        >
          {item.created_by_name || t('media.item.byMember')}
        </Typography.Text>
      ) : null}
      <Typography.Text type="secondary" style={{ width: 72, textAlign: 'end' }}>
        {formatBytes(item.size)}
      </Typography.Text>
      {columns.time ? (
        <Typography.Text type="secondary" style={{ width: 124, textAlign: 'end' }}>
          {dayjs(item.deleted_at ?? item.created_at).format('YYYY-MM-DD HH:mm')}
        </Typography.Text>
      ) : null}
      {/* MoreMenu keeps its clicks from opening the row; the blank keeps columns aligned without it. */}
      <span style={{ width: 32, flex: 'none' }}>
        <ItemMenu item={item} handlers={handlers} />
      </span>
    </Flex>
  );
}

/** The grid view: tiles in rows as wide as the page allows; the rows are virtualised. */
export function ItemGrid({ items, hasMore, loadMore, handlers, onRange }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const node = scroller.current;
    if (!node) return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry?.contentRect.width ?? 0));
    observer.observe(node);
    return () => observer.disconnect();
  }, []);
  const inner = width - 24;
  const columns = Math.max(1, Math.floor((inner + GAP) / (TILE_MIN_WIDTH + GAP)));
  const columnWidth = Math.max(TILE_MIN_WIDTH, (inner - (columns - 1) * GAP) / columns);
  // The picture inside the card's 10 px padding.
  const thumbHeight = Math.round((columnWidth - 20) * THUMB_RATIO);
  const tileHeight = thumbHeight + TILE_TEXT;
  const rowCount = Math.ceil(items.length / columns);
  const virtual = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scroller.current,
    estimateSize: () => tileHeight + GAP,
    overscan: 3,
  });
  // Rows are placed from their estimated height: a new width means new heights for all of them.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `tileHeight` is the trigger.
  useEffect(() => virtual.measure(), [virtual, tileHeight]);
  const rows = virtual.getVirtualItems();
  const lastRow = rows.at(-1)?.index;
  const lastIndex = lastRow === undefined ? -1 : Math.min(items.length - 1, (lastRow + 1) * columns - 1);
  useNearEnd(lastRow === undefined ? undefined : (lastRow + 1) * columns - 1, items.length, hasMore, loadMore);
  useReportRange((rows[0]?.index ?? 0) * columns, lastIndex, onRange);
  return (
    <div ref={scroller} style={VIEWPORT} data-testid="media-grid">
      <div style={{ height: virtual.getTotalSize(), position: 'relative', margin: 12 }}>
        {rows.map((row) => (
          <div
            key={row.key}
            style={{
              position: 'absolute',
              top: 0,
              left: 0,
              right: 0,
              transform: `translateY(${row.start}px)`,
              display: 'grid',
              gridTemplateColumns: `repeat(${columns}, 1fr)`,
              gap: GAP,
            }}
          >
            {items.slice(row.index * columns, row.index * columns + columns).map((item) => (
              <GridTile key={item.id} item={item} height={tileHeight} thumbHeight={thumbHeight} handlers={handlers} />
            ))}
          </div>
        ))}
      </div>
    </div>
  );
}

function GridTile({
  item,
  height,
  thumbHeight,
  handlers,
}: {
  item: MediaItem;
  height: number;
  thumbHeight: number;
  handlers: ItemHandlers;
}) {
  const { token } = theme.useToken();
  const facts = [dimensionsText(item), formatBytes(item.size)].filter(Boolean).join(' · ');
  return (
    <Card
      hoverable
      size="small"
      onClick={() => handlers.open(item)}
      data-testid="media-item"
      data-item-id={item.id}
      data-name={item.name}
      style={{ height, overflow: 'hidden' }}
      styles={{ body: { padding: 10 } }}
    >
      <Flex vertical gap={6}>
        <div style={{ height: thumbHeight, position: 'relative' }}>
          <ItemThumb item={item} iconSize={36} />
          {/* On a picture the button needs a ground of its own to be seen. */}
          <span style={{ position: 'absolute', top: 4, right: 4, borderRadius: 6, background: token.colorBgElevated }}>
            <ItemMenu item={item} handlers={handlers} />
          </span>
        </div>
        <Typography.Text ellipsis={{ tooltip: item.name }} data-testid="media-item-name">
          {item.name}
        </Typography.Text>
        <Flex gap={6} align="center" wrap={false} style={{ minWidth: 0 }}>
          <KindTag kind={item.kind} />
          <StatusTag item={item} />
          <Typography.Text
            type="secondary"
            ellipsis={{ tooltip: facts }}
            style={{ fontSize: 12, flex: 1, minWidth: 0 }}
            data-testid="media-item-facts"
          >
            {facts}
          </Typography.Text>
        </Flex>
      </Flex>
    </Card>
  );
}
