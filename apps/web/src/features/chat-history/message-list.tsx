import { ArrowDownOutlined } from '@ant-design/icons';
import type { ChatHistoryMessage } from '@athena/contract';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Button, Empty, Flex, Spin, theme } from 'antd';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { activeTimezone } from '../../lib/timezone.ts';
import { useNow } from '../../shared/hooks/use-now.ts';
import { dayDistance, dayKeyOf, longDateOf } from './chat-time.ts';
import { MessageRow } from './message-row.tsx';
import type { useThread } from './use-thread.ts';

/** Rough heights before a row is measured; close guesses keep the scrollbar steady. */
function estimateOf(message: ChatHistoryMessage): number {
  switch (message.display_type) {
    case 'text':
      return 64 + 22 * Math.floor(message.content.length / 40) + 22 * (message.content.match(/\n/g)?.length ?? 0);
    case 'image':
    case 'video':
      return 260;
    case 'audio':
    case 'unknown':
      return 72;
    case 'mix':
    case 'mini_program':
      return 180;
    default:
      return 130;
  }
}

/** From this close to the end, the reader counts as following the conversation. */
const AT_END_PX = 120;

interface Props {
  thread: ReturnType<typeof useThread>;
  anchorId: string | null;
  keyword: string;
  /** The private chat's customer, for their messages that name no sender. */
  customerName: string;
  /** Leaves a search hit for the live end (the stretch below it is not loaded). */
  onDropAnchor: () => void;
}

/**
 * The thread as a virtual list: it opens at its end (or at the search hit), reads older messages as
 * the reader nears the top without moving what they look at, and follows new ones while the reader
 * is at the end. Rows are keyed by message id, so the virtualizer keeps its place when a page is
 * put in front.
 */
export function MessageList({ thread, anchorId, keyword, customerName, onDropAnchor }: Props) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const zone = activeTimezone();
  const now = useNow(60_000);
  const scroller = useRef<HTMLDivElement>(null);
  const { items, hasOlder, hasNewer } = thread.thread;
  const [armed, setArmed] = useState(false);
  const [atEnd, setAtEnd] = useState(true);
  const [seenLast, setSeenLast] = useState<string | null>(null);

  const dayLabels = useMemo(
    () =>
      items.map((message, index) => {
        const day = dayKeyOf(message.sent_at, zone);
        if (index > 0 && dayKeyOf(items[index - 1].sent_at, zone) === day) return null;
        const distance = dayDistance(Date.parse(message.sent_at), now, zone);
        if (distance === 0) return t('chatHistory.thread.today');
        if (distance === 1) return t('chatHistory.time.yesterday');
        return longDateOf(message.sent_at, zone, i18n.language);
      }),
    [items, zone, now, t, i18n.language],
  );

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => estimateOf(items[index]) + (dayLabels[index] ? 34 : 0),
    getItemKey: (index) => items[index]?.id ?? index,
    overscan: 6,
    paddingStart: 8,
    paddingEnd: 16,
    // Keeps the bottom in view as rows are measured, holds the reader's place when older pages
    // are put in front, and follows new messages while the reader is at the end.
    anchorTo: 'end',
    followOnAppend: true,
    scrollEndThreshold: AT_END_PX,
  });
  const rows = virtualizer.getVirtualItems();

  // Once loaded: to the search hit, else to the end. Older pages are read only after that, or
  // the first rows, drawn at the top before the jump, would ask for them at once.
  const positioned = useRef(false);
  const anchorIndex = anchorId ? items.findIndex((message) => message.id === anchorId) : -1;
  useLayoutEffect(() => {
    if (positioned.current || thread.status !== 'ready' || items.length === 0) return;
    positioned.current = true;
    if (anchorIndex >= 0) virtualizer.scrollToIndex(anchorIndex, { align: 'center' });
    else virtualizer.scrollToEnd();
    const timer = setTimeout(() => setArmed(true), 300);
    return () => clearTimeout(timer);
  }, [thread.status, items.length, anchorIndex, virtualizer]);

  const firstIndex = rows[0]?.index ?? -1;
  const lastIndex = rows.at(-1)?.index ?? -1;
  const { loadOlder, loadNewer } = thread;
  useEffect(() => {
    if (armed && firstIndex === 0 && hasOlder && thread.older === 'idle') loadOlder();
  }, [armed, firstIndex, hasOlder, thread.older, loadOlder]);
  useEffect(() => {
    if (armed && lastIndex === items.length - 1 && hasNewer && thread.newer === 'idle') loadNewer();
  }, [armed, lastIndex, items.length, hasNewer, thread.newer, loadNewer]);

  const lastId = items.at(-1)?.id ?? null;
  useEffect(() => {
    if (atEnd && !hasNewer) setSeenLast(lastId);
  }, [atEnd, hasNewer, lastId]);
  const unseen = !atEnd && seenLast !== null && lastId !== seenLast;

  if (thread.status === 'ready' && items.length === 0) {
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={t('chatHistory.thread.empty')}
        style={{ marginTop: 64 }}
      />
    );
  }

  const pill = { position: 'absolute', left: '50%', transform: 'translateX(-50%)', zIndex: 2 } as const;
  const edgeNotice = (side: 'older' | 'newer') => {
    const state = thread[side];
    if (state === 'idle') return null;
    return (
      <Flex
        align="center"
        gap={8}
        style={{
          ...pill,
          [side === 'older' ? 'top' : 'bottom']: 8,
          background: token.colorBgElevated,
          boxShadow: token.boxShadowSecondary,
          borderRadius: 16,
          padding: '2px 12px',
          fontSize: 12,
        }}
        data-testid={`chat-thread-${side}`}
      >
        {state === 'loading' ? (
          <>
            <Spin size="small" /> {t(`chatHistory.thread.${side}Loading`)}
          </>
        ) : (
          <>
            <span style={{ color: token.colorError }}>{t(`chatHistory.thread.${side}Failed`)}</span>
            <Button type="link" size="small" onClick={side === 'older' ? loadOlder : loadNewer}>
              {t('common.retry')}
            </Button>
          </>
        )}
      </Flex>
    );
  };

  return (
    <div style={{ position: 'relative', height: '100%', minHeight: 0 }}>
      {edgeNotice('older')}
      <div
        ref={scroller}
        style={{ height: '100%', overflowY: 'auto', overflowAnchor: 'none' }}
        data-testid="chat-thread"
        onScroll={(event) => {
          const el = event.currentTarget;
          setAtEnd(el.scrollHeight - el.scrollTop - el.clientHeight < AT_END_PX);
        }}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {rows.map((row) => (
            <div
              key={row.key}
              data-index={row.index}
              ref={virtualizer.measureElement}
              style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${row.start}px)` }}
            >
              <MessageRow
                message={items[row.index]}
                dayLabel={dayLabels[row.index]}
                beginning={row.index === 0 && !hasOlder}
                anchor={items[row.index].id === anchorId}
                keyword={keyword}
                zone={zone}
                customerName={customerName}
              />
            </div>
          ))}
        </div>
      </div>
      {edgeNotice('newer')}
      {(!atEnd || hasNewer) && thread.newer === 'idle' ? (
        <Button
          shape="round"
          icon={<ArrowDownOutlined />}
          type={unseen ? 'primary' : 'default'}
          style={{ position: 'absolute', right: 20, bottom: 16, zIndex: 2, boxShadow: token.boxShadowSecondary }}
          onClick={() => (hasNewer ? onDropAnchor() : virtualizer.scrollToEnd({ behavior: 'smooth' }))}
          data-testid="chat-thread-latest"
        >
          {unseen ? t('chatHistory.thread.newMessages') : t('chatHistory.thread.latest')}
        </Button>
      ) : null}
    </div>
  );
}
