import type { ChatHistoryMessage } from '@athena/contract';

/** One answer of message/list: messages oldest first, and whether more lie in that direction. */
export interface ThreadPage {
  items: ChatHistoryMessage[];
  has_more: boolean;
}

/**
 * The loaded stretch of a thread: contiguous messages in time order, and whether older ones (above)
 * or newer ones (below, when it was opened at a found message) are still on the server.
 */
export interface ThreadState {
  items: ChatHistoryMessage[];
  hasOlder: boolean;
  hasNewer: boolean;
}

export const EMPTY_THREAD: ThreadState = { items: [], hasOlder: false, hasNewer: false };

/** Live catch-up and paging can overlap, so a message may come twice: the first copy stays. */
function unseen(state: ThreadState, items: ChatHistoryMessage[]) {
  const seen = new Set(state.items.map((message) => message.id));
  return items.filter((message) => !seen.has(message.id));
}

/** The newest page: the thread as it is now. */
export const threadFromNewest = (page: ThreadPage): ThreadState => ({
  items: page.items,
  hasOlder: page.has_more,
  hasNewer: false,
});

/**
 * A thread opened at one message M: `older` is M and what precedes it (read before the first
 * message after M), `newer` what follows M.
 */
export const threadAround = (older: ThreadPage, newer: ThreadPage): ThreadState => ({
  items: [...older.items, ...newer.items.filter((message) => !older.items.some((o) => o.id === message.id))],
  hasOlder: older.has_more,
  hasNewer: newer.has_more,
});

/** Earlier messages, scrolled up to. */
export const withOlder = (state: ThreadState, page: ThreadPage): ThreadState => ({
  ...state,
  items: [...unseen(state, page.items), ...state.items],
  hasOlder: page.has_more,
});

/** Later messages: scrolled down to, or arrived live. */
export const withNewer = (state: ThreadState, page: ThreadPage): ThreadState => ({
  ...state,
  items: [...state.items, ...unseen(state, page.items)],
  hasNewer: page.has_more,
});

/**
 * Fresh copies of messages already shown (a recall, a failed send): each replaces its old copy in
 * place; messages not shown are left out, as they belong to a stretch not loaded.
 */
export function withUpdates(state: ThreadState, items: ChatHistoryMessage[]): ThreadState {
  const fresh = new Map(items.map((message) => [message.id, message]));
  let changed = false;
  const next = state.items.map((message) => {
    const copy = fresh.get(message.id);
    if (!copy || JSON.stringify(copy) === JSON.stringify(message)) return message;
    changed = true;
    return copy;
  });
  return changed ? { ...state, items: next } : state;
}

/**
 * A reply of ours just sent (the send's answer): it replaces its copy when a live catch-up already
 * brought it, else it goes at the end, unless the loaded stretch does not reach the end.
 */
export function withSent(state: ThreadState, message: ChatHistoryMessage): ThreadState {
  if (state.items.some((item) => item.id === message.id)) return withUpdates(state, [message]);
  if (state.hasNewer) return state;
  return { ...state, items: [...state.items, message] };
}
