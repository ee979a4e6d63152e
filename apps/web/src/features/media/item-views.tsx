import type { MediaItem } from '@athena/contract';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Card, Flex, Typography, theme } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { formatBytes } from '../../lib/format.ts';
import { type ItemHandlers, ItemMenu } from './item-actions.tsx';
import { KindIcon, KindTag, StatusTag } from './kind-icon.tsx';

const ROW = 56;
const TILE = 176;
const TILE_MIN_WIDTH = 180;
const GAP = 12;
/** Fills the window under the page's head; the list scrolls inside it, so only visible rows exist. */
const VIEWPORT = { height: 'max(360px, calc(100vh - 330px))', overflow: 'auto', contain: 'strict' } as const;

interface Props {
  items: MediaItem[];
  /** More pages on the server: the next loads when the list nears its end. */
  hasMore: boolean;
  loadMore: () => void;
  handlers: ItemHandlers;
}

function useNearEnd(lastIndex: number | undefined, count: number, hasMore: boolean, loadMore: () => void) {
  useEffect(() => {
    if (hasMore && lastIndex !== undefined && lastIndex >= count - 5) loadMore();
  }, [lastIndex, count, hasMore, loadMore]);
}

/** The list view: one row per item, virtualised (10 000 items keep only the visible rows in the page). */
export function ItemList({ items, hasMore, loadMore, handlers }: Props) {
  const { token } = theme.useToken();
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW,
    overscan: 8,
  });
  const rows = virtual.getVirtualItems();
  useNearEnd(rows.at(-1)?.index, items.length, hasMore, loadMore);
  return (
    <Card styles={{ body: { padding: 0 } }}>
      <div ref={scroller} style={VIEWPORT} data-testid="media-list">
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {rows.map((row) => {
            const item = items[row.index];
            if (!item) return null;
            return (
              <Flex
                key={item.id}
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
                  transform: `translateY(${row.start}px)`,
                  padding: '0 16px',
                  borderBottom: `1px solid ${token.colorSplit}`,
                  cursor: 'pointer',
                }}
              >
                <KindIcon kind={item.kind} style={{ fontSize: 20, color: token.colorPrimary }} />
                <Typography.Text
                  ellipsis={{ tooltip: item.name }}
                  style={{ flex: 1, minWidth: 0 }}
                  data-testid="media-item-name"
                >
                  {item.name}
                </Typography.Text>
                <StatusTag item={item} />
                <KindTag kind={item.kind} />
                <Typography.Text type="secondary" style={{ width: 80, textAlign: 'end' }}>
                  {formatBytes(item.size)}
                </Typography.Text>
                <Typography.Text type="secondary" style={{ width: 130, textAlign: 'end' }}>
                  {dayjs(item.deleted_at ?? item.created_at).format('YYYY-MM-DD HH:mm')}
                </Typography.Text>
                {/* MoreMenu keeps its clicks from opening the row. */}
                <ItemMenu item={item} handlers={handlers} />
              </Flex>
            );
          })}
        </div>
      </div>
    </Card>
  );
}

/** The grid view: tiles in rows as wide as the page allows; the rows are virtualised. */
export function ItemGrid({ items, hasMore, loadMore, handlers }: Props) {
  const { token } = theme.useToken();
  const scroller = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const node = scroller.current;
    if (!node) return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry?.contentRect.width ?? 0));
    observer.observe(node);
    return () => observer.disconnect();
  }, []);
  const columns = Math.max(1, Math.floor((width - 24 + GAP) / (TILE_MIN_WIDTH + GAP)));
  const rowCount = Math.ceil(items.length / columns);
  const virtual = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scroller.current,
    estimateSize: () => TILE + GAP,
    overscan: 3,
  });
  const rows = virtual.getVirtualItems();
  const lastRow = rows.at(-1)?.index;
  useNearEnd(lastRow === undefined ? undefined : (lastRow + 1) * columns - 1, items.length, hasMore, loadMore);
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
              <Card
                key={item.id}
                hoverable
                size="small"
                onClick={() => handlers.open(item)}
                data-testid="media-item"
                data-item-id={item.id}
                data-name={item.name}
                style={{ height: TILE }}
                styles={{ body: { padding: 10 } }}
              >
                <Flex vertical gap={6}>
                  <Flex
                    align="center"
                    justify="center"
                    style={{ height: 84, borderRadius: 8, background: token.colorFillTertiary, position: 'relative' }}
                  >
                    <KindIcon kind={item.kind} style={{ fontSize: 36, color: token.colorTextTertiary }} />
                    <span style={{ position: 'absolute', top: 4, right: 4 }}>
                      <ItemMenu item={item} handlers={handlers} />
                    </span>
                  </Flex>
                  <Typography.Text ellipsis={{ tooltip: item.name }} data-testid="media-item-name">
                    {item.name}
                  </Typography.Text>
                  <Flex gap={6} align="center" wrap={false}>
                    <KindTag kind={item.kind} />
                    <StatusTag item={item} />
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {formatBytes(item.size)}
                    </Typography.Text>
                  </Flex>
                </Flex>
              </Card>
            ))}
          </div>
        ))}
      </div>
    </div>
  );
}
