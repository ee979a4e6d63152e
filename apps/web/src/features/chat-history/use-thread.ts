import { CHAT_LIMITS, type ChatHistoryMessage, chatHistoryRoutes } from '@athena/contract';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../../lib/api-client.ts';
import { oneAtATime } from '../../lib/one-at-a-time.ts';
import {
  EMPTY_THREAD,
  type ThreadState,
  threadAround,
  threadFromNewest,
  withNewer,
  withOlder,
  withSent,
  withUpdates,
} from './thread-state.ts';

/** Messages read at a time when scrolling; live catch-up reads the most the server allows. */
const PAGE = 50;
const CATCH_UP_PAGE = CHAT_LIMITS.pageSize;
/** Pages read by one live catch-up before the rest is left to "newer messages" below. */
const CATCH_UP_PAGES = 5;

type Edge = 'idle' | 'loading' | 'error';

export interface ThreadView {
  status: 'loading' | 'error' | 'ready';
  error: unknown;
  thread: ThreadState;
  older: Edge;
  newer: Edge;
}

const LOADING: ThreadView = { status: 'loading', error: null, thread: EMPTY_THREAD, older: 'idle', newer: 'idle' };

const page = (conversationId: string, anchor: { before_id?: string; after_id?: string } = {}, limit = PAGE) =>
  api(chatHistoryRoutes.messageList, { conversation_id: conversationId, ...anchor, limit });

/**
 * One conversation's messages, read in both directions: its newest page first (or the stretch
 * around a search hit), older pages as the reader scrolls up, newer ones as they scroll down or as
 * live changes come in. Kept in component state rather than the query cache: the stretch grows at
 * both ends and merges live copies, which no single query key describes.
 */
export function useThread(conversationId: string | null, anchorId: string | null, scopeKey: string) {
  const [view, setView] = useState<ThreadView>(LOADING);
  const current = useRef(view);
  current.current = view;
  // Answers for a conversation the reader has already left are dropped.
  const generation = useRef(0);
  const [reloads, setReloads] = useState(0);
  // Replies on their way (shown at the end with a spinner); kept apart from the loaded stretch,
  // whose last id is where a catch-up reads on from.
  const [pending, setPending] = useState<ChatHistoryMessage[]>([]);

  // The view belongs to the conversation it was loaded for; until the next one's load has begun,
  // the previous conversation's messages must not show under the new header.
  const viewKey = `${scopeKey}:${conversationId}:${anchorId}:${reloads}`;
  const [loadedKey, setLoadedKey] = useState(viewKey);

  useEffect(() => {
    const mine = ++generation.current;
    setView(LOADING);
    setLoadedKey(viewKey);
    if (!conversationId) return;
    const load = async (): Promise<ThreadState> => {
      if (!anchorId) return threadFromNewest(await page(conversationId));
      const newer = await page(conversationId, { after_id: anchorId });
      // Nothing after the hit (or the hit is gone): the newest page shows it, or the thread's end.
      if (newer.items.length === 0) return threadFromNewest(await page(conversationId));
      const older = await page(conversationId, { before_id: newer.items[0].id }, 30);
      return threadAround(older, newer);
    };
    load().then(
      (thread) => {
        if (generation.current === mine) setView({ ...LOADING, status: 'ready', thread });
      },
      (error: unknown) => {
        if (generation.current === mine) setView({ ...LOADING, status: 'error', error });
      },
    );
    // scopeKey (in viewKey): the same id in another space or scene is another conversation.
  }, [conversationId, anchorId, viewKey]);

  const edge = useCallback(
    async (side: 'older' | 'newer') => {
      const { status, thread } = current.current;
      const more = side === 'older' ? thread.hasOlder : thread.hasNewer;
      if (!conversationId || status !== 'ready' || !more || current.current[side] === 'loading') return;
      const mine = generation.current;
      // Marked at once, not at the next render: the list may ask again before it comes.
      current.current = { ...current.current, [side]: 'loading' };
      setView((v) => ({ ...v, [side]: 'loading' }));
      try {
        const anchor = side === 'older' ? { before_id: thread.items[0]?.id } : { after_id: thread.items.at(-1)?.id };
        const answer = await page(conversationId, anchor);
        if (generation.current !== mine) return;
        setView((v) => ({
          ...v,
          [side]: 'idle',
          thread: side === 'older' ? withOlder(v.thread, answer) : withNewer(v.thread, answer),
        }));
      } catch {
        if (generation.current === mine) setView((v) => ({ ...v, [side]: 'error' }));
      }
    },
    [conversationId],
  );

  /**
   * The conversation changed on the server: read what came after the last message shown, then the
   * newest page again, whose copies replace the ones shown (a recall, a reply that was sending and
   * is now sent or failed: a change to a message shown can come with new ones). Resolves with the
   * number of new messages.
   */
  const readChanges = useCallback(async (): Promise<number> => {
    const { status, thread } = current.current;
    // Opened at a search hit, the reader is not at the live end: "newer" below covers it.
    if (!conversationId || status !== 'ready' || thread.hasNewer) return 0;
    const mine = generation.current;
    let added = 0;
    let readNewest = false;
    try {
      for (let round = 0; ; round++) {
        const last = current.current.thread.items.at(-1)?.id;
        readNewest ||= !last;
        const answer = last
          ? await page(conversationId, { after_id: last }, CATCH_UP_PAGE)
          : await page(conversationId);
        if (generation.current !== mine) return 0;
        added += answer.items.length;
        const stop = !answer.has_more || round === CATCH_UP_PAGES - 1 || !last;
        // Stopped with more left: the rest is "newer messages" below, read when scrolled to.
        const next = last
          ? withNewer(current.current.thread, { items: answer.items, has_more: answer.has_more })
          : threadFromNewest(answer);
        current.current = { ...current.current, thread: next };
        setView((v) => ({ ...v, thread: next }));
        if (stop) break;
      }
      if (!readNewest) {
        const fresh = await page(conversationId);
        if (generation.current !== mine) return 0;
        current.current = { ...current.current, thread: withUpdates(current.current.thread, fresh.items) };
        setView((v) => ({ ...v, thread: withUpdates(v.thread, fresh.items) }));
      }
    } catch {
      // A missed catch-up is made good by the next change or by scrolling; nothing to show.
    }
    return added;
  }, [conversationId]);

  /**
   * One catch-up at a time: two at once read from the same last message, and the one that read
   * earlier may answer later, its older copies kept (withNewer keeps the first copy): a reply
   * read while it was sending stayed "sending" after its send. A change heard during a catch-up is
   * read by one more after it.
   */
  const catchUp = useMemo(() => oneAtATime(readChanges), [readChanges]);

  /** A reply is on its way: shown at the end at once, marked as sending. */
  const addPending = useCallback((message: ChatHistoryMessage) => setPending((list) => [...list, message]), []);

  /**
   * The reply's send answered: what came before it is read first (a colleague's reply, a customer
   * message not caught up yet), so nothing is skipped; then the stored message (sent or failed)
   * takes its placeholder's place.
   */
  const settle = useCallback(
    async (placeholderId: string, message: ChatHistoryMessage | null) => {
      if (message && current.current.status === 'ready') {
        await catchUp();
        current.current = { ...current.current, thread: withSent(current.current.thread, message) };
        setView((v) => ({ ...v, thread: withSent(v.thread, message) }));
      }
      setPending((list) => list.filter((item) => item.id !== placeholderId));
    },
    [catchUp],
  );

  const shown = loadedKey === viewKey ? view : LOADING;
  const withPending = useMemo(
    () =>
      pending.length > 0 && shown.status === 'ready' && !shown.thread.hasNewer
        ? { ...shown.thread, items: [...shown.thread.items, ...pending] }
        : shown.thread,
    [pending, shown.status, shown.thread],
  );
  return {
    ...shown,
    thread: withPending,
    addPending,
    settle,
    loadOlder: useCallback(() => void edge('older'), [edge]),
    loadNewer: useCallback(() => void edge('newer'), [edge]),
    catchUp,
    reload: useCallback(() => setReloads((n) => n + 1), []),
  };
}
