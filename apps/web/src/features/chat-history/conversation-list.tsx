import type { ChatConversation } from '@athena/contract';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Button, Empty, Skeleton, Spin, Typography, theme } from 'antd';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { activeTimezone } from '../../lib/timezone.ts';
import { useNow } from '../../shared/hooks/use-now.ts';
import { ListLoadError } from '../../shared/ui/list-page-parts.tsx';
import type { useConversationList } from './chat-history-queries.ts';
import { ConversationRow, ROW_HEIGHT } from './conversation-row.tsx';

/** Rows left below the last one shown when the next page is asked for: scrolling rarely waits. */
const PREFETCH_ROWS = 8;

interface Props {
  query: ReturnType<typeof useConversationList>;
  activeId: string | null;
  keyword: string;
  /** A keyword or send-type filter is on: rows show the message that matched. */
  showMatch: boolean;
  filtered: boolean;
  /** Changes with the filters: the list then scrolls back to its top. */
  resetKey: string;
  onOpen: (conversation: ChatConversation) => void;
  onClearFilters: () => void;
}

/**
 * The conversations, newest activity first, as a virtual list (a scene may have tens of thousands)
 * that reads the next page as the reader nears the end.
 */
export function ConversationList(props: Props) {
  const { query, activeId, keyword, showMatch, filtered, resetKey, onOpen, onClearFilters } = props;
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const now = useNow();
  const zone = activeTimezone();
  const scroller = useRef<HTMLDivElement>(null);
  // A live change can move a conversation between pages while they reload: show it once.
  const items = useMemo(() => {
    const seen = new Set<string>();
    return (query.data?.pages ?? []).flatMap((page) =>
      page.items.filter((item) => !seen.has(item.id) && Boolean(seen.add(item.id))),
    );
  }, [query.data]);
  const footer = query.hasNextPage || query.isFetchNextPageError;
  const virtualizer = useVirtualizer({
    count: items.length + (footer ? 1 : 0),
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (index) => items[index]?.id ?? 'footer',
    overscan: 6,
  });
  const rows = virtualizer.getVirtualItems();
  const lastIndex = rows.at(-1)?.index ?? -1;
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = query;

  useEffect(() => {
    if (lastIndex >= items.length - PREFETCH_ROWS && hasNextPage && !isFetchingNextPage && !isFetchNextPageError) {
      void fetchNextPage();
    }
  }, [lastIndex, items.length, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage]);

  // A new filter starts at the top of its own results.
  useEffect(() => {
    if (resetKey) scroller.current?.scrollTo({ top: 0 });
  }, [resetKey]);

  if (query.isPending) {
    return (
      <div style={{ padding: 12 }} data-testid="chat-list-loading">
        {[0, 1, 2, 3, 4, 5].map((i) => (
          <Skeleton
            key={i}
            active
            avatar={{ size: 40 }}
            title={false}
            paragraph={{ rows: 2, width: ['70%', '90%'] }}
            style={{ marginBottom: 16 }}
          />
        ))}
      </div>
    );
  }
  if (query.isError && items.length === 0) {
    return (
      <div style={{ padding: 12 }}>
        <ListLoadError
          title={t('chatHistory.list.loadFailed')}
          error={query.error}
          onRetry={() => void query.refetch()}
          testId="chat-list-error"
        />
      </div>
    );
  }
  if (items.length === 0) {
    return filtered ? (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={t('chatHistory.list.noMatch')}
        style={{ marginTop: 48 }}
        data-testid="chat-list-no-match"
      >
        <Button onClick={onClearFilters} data-testid="chat-list-clear">
          {t('chatHistory.filters.clear')}
        </Button>
      </Empty>
    ) : (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={t('chatHistory.list.empty')}
        style={{ marginTop: 48 }}
        data-testid="chat-list-empty"
      />
    );
  }

  return (
    <div
      ref={scroller}
      style={{
        height: '100%',
        overflowY: 'auto',
        opacity: query.isPlaceholderData ? 0.55 : 1,
        transition: 'opacity .2s',
      }}
      data-testid="chat-list"
      aria-busy={query.isFetching}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {rows.map((row) => {
          const conversation = items[row.index];
          return (
            <div
              key={row.key}
              style={{
                position: 'absolute',
                top: 0,
                left: 0,
                right: 0,
                height: row.size,
                transform: `translateY(${row.start}px)`,
              }}
            >
              {conversation ? (
                <ConversationRow
                  conversation={conversation}
                  active={conversation.id === activeId}
                  keyword={keyword}
                  showMatch={showMatch}
                  zone={zone}
                  now={now}
                  onOpen={onOpen}
                />
              ) : (
                <div
                  style={{
                    height: '100%',
                    display: 'flex',
                    alignItems: 'center',
                    justifyContent: 'center',
                    color: token.colorTextTertiary,
                  }}
                >
                  {isFetchNextPageError ? (
                    <Typography.Text type="danger">
                      {t('chatHistory.list.moreFailed')}{' '}
                      <Button type="link" size="small" onClick={() => void fetchNextPage()}>
                        {t('common.retry')}
                      </Button>
                    </Typography.Text>
                  ) : (
                    <Spin size="small" />
                  )}
                </div>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
