import { useEffect, useRef } from 'react';
import { followChatLive } from './chat-live.ts';

/** Changes arriving within this window are handled together: a busy scene reloads its list once. */
const BATCH_MS = 400;

/**
 * Follows the scene's live changes while the page is open (chat-live.ts). `onChanged` gets the
 * conversations that changed in one batch; an empty list means "reload everything".
 */
export function useChatLive(
  scope: { spaceId: string | null; sceneId: number | null; enabled: boolean },
  onChanged: (conversationIds: string[]) => void,
) {
  const latest = useRef(onChanged);
  useEffect(() => {
    latest.current = onChanged;
  });
  const { spaceId, sceneId, enabled } = scope;

  useEffect(() => {
    if (!spaceId || sceneId === null || !enabled) return;
    const controller = new AbortController();
    let pending: Set<string> | null = null;
    let everything = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      const ids = everything ? [] : [...(pending ?? [])];
      pending = null;
      everything = false;
      timer = undefined;
      latest.current(ids);
    };
    void followChatLive({
      signal: controller.signal,
      onChanged: (ids) => {
        pending ??= new Set();
        if (ids.length === 0) everything = true;
        for (const id of ids) pending.add(id);
        timer ??= setTimeout(flush, BATCH_MS);
      },
    });
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [spaceId, sceneId, enabled]);
}
