import type { ChatMessage } from '@athena/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorText } from '../../../lib/api-client.ts';
import { currentLocale } from '../../../lib/i18n.ts';
import { isAbortError, stream } from '../../../lib/stream-client.ts';
import type { ChatItem, ChatNotice, ChatTransport, TurnRequest } from './chat-types.ts';
import { toCitations } from './citations.ts';
import { upsertStep } from './tool-steps.ts';

let localKeys = 0;
const localKey = (prefix: string) => `${prefix}-${Date.now()}-${++localKeys}`;

export interface UseChatOptions {
  transport: ChatTransport;
  /** The server opened a new conversation (the first answer's `start`). */
  onConversation?: (conversationId: string) => void;
  /** A turn finished in any way (titles and times in a conversation list may have changed). */
  onTurnEnd?: () => void;
}

/**
 * One conversation's state and its streaming turns: send, stop (abort — the server keeps the
 * partial answer as stopped), regenerate the last answer, retry a refused question, and load an
 * earlier conversation. Shared by the playground and the public share page.
 */
export function useChat({ transport, onConversation, onTurnEnd }: UseChatOptions) {
  const { t } = useTranslation();
  const [items, setItems] = useState<ChatItem[]>([]);
  const [notice, setNotice] = useState<ChatNotice | null>(null);
  const [streaming, setStreaming] = useState(false);
  const [conversationId, setConversationId] = useState<string | undefined>();
  // Read synchronously by callers that must not race React's state (e.g. a URL that follows it).
  const conversationRef = useRef<string | undefined>(undefined);
  const controllerRef = useRef<AbortController | null>(null);
  const optionsRef = useRef({ transport, onConversation, onTurnEnd });
  optionsRef.current = { transport, onConversation, onTurnEnd };

  const setConversation = useCallback((id: string | undefined) => {
    conversationRef.current = id;
    setConversationId(id);
  }, []);

  const patch = useCallback((key: string, change: Partial<ChatItem> | ((item: ChatItem) => Partial<ChatItem>)) => {
    setItems((list) =>
      list.map((item) =>
        item.key === key ? { ...item, ...(typeof change === 'function' ? change(item) : change) } : item,
      ),
    );
  }, []);

  /** Streams one answer into the item `answerKey`, which the caller has already placed. */
  const runTurn = useCallback(
    async (request: TurnRequest, answerKey: string, onRefused: (notice: ChatNotice) => void) => {
      const controller = new AbortController();
      controllerRef.current = controller;
      setStreaming(true);
      setNotice(null);
      let started = false;
      try {
        const { transport } = optionsRef.current;
        const body = transport.body({ ...request, conversationId: conversationRef.current });
        const { ended } = await stream(transport.stream, body, {
          signal: controller.signal,
          onEvent: ({ event, data }) => {
            if (event === 'start') {
              started = true;
              if (data.conversation_id && data.conversation_id !== conversationRef.current) {
                setConversation(data.conversation_id);
                optionsRef.current.onConversation?.(data.conversation_id);
              }
            } else if (event === 'citations') {
              patch(answerKey, { citations: toCitations(data.items) });
            } else if (event === 'tool') {
              patch(answerKey, (item) => ({ steps: upsertStep(item.steps, data) }));
            } else if (event === 'delta') {
              patch(answerKey, (item) => ({ content: item.content + data.text }));
            } else if (event === 'error') {
              patch(answerKey, { status: 'error', errorText: data.msg || t('agents.chat.failed') });
            } else if (event === 'end') {
              patch(answerKey, (item) => ({
                status: data.status === 'error' || item.status === 'error' ? 'error' : 'complete',
              }));
            }
          },
        });
        if (!ended) patch(answerKey, { status: 'error', errorText: t('agents.chat.connectionLost') });
      } catch (error) {
        if (isAbortError(error)) {
          patch(answerKey, { status: 'stopped' });
        } else if (error instanceof ApiError && !started) {
          setItems((list) => list.filter((item) => item.key !== answerKey));
          if (!error.handled) onRefused({ message: errorText(error, currentLocale()), code: error.code, retry: null });
        } else {
          patch(answerKey, { status: 'error', errorText: t('agents.chat.connectionLost') });
        }
      } finally {
        if (controllerRef.current === controller) controllerRef.current = null;
        setStreaming(false);
        optionsRef.current.onTurnEnd?.();
      }
    },
    [patch, setConversation, t],
  );

  const send = useCallback(
    (text: string) => {
      const message = text.trim();
      if (!message || controllerRef.current) return false;
      const questionKey = localKey('q');
      const answerKey = localKey('a');
      setItems((list) => [
        ...list.filter((item) => item.status !== 'unsent'),
        {
          key: questionKey,
          role: 'user',
          content: message,
          status: 'complete',
          errorText: null,
          citations: [],
          steps: [],
        },
        {
          key: answerKey,
          role: 'assistant',
          content: '',
          status: 'streaming',
          errorText: null,
          citations: [],
          steps: [],
        },
      ]);
      void runTurn({ message }, answerKey, (refusal) => {
        patch(questionKey, { status: 'unsent' });
        setNotice({ ...refusal, retry: { kind: 'send', text: message } });
      });
      return true;
    },
    [patch, runTurn],
  );

  const regenerate = useCallback(() => {
    if (controllerRef.current || !conversationRef.current) return;
    const answerKey = localKey('a');
    let previous: ChatItem | undefined;
    setItems((list) => {
      const last = list.at(-1);
      previous = last?.role === 'assistant' ? last : undefined;
      const kept = previous ? list.slice(0, -1) : list;
      return [
        ...kept,
        {
          key: answerKey,
          role: 'assistant',
          content: '',
          status: 'streaming',
          errorText: null,
          citations: [],
          steps: [],
        },
      ];
    });
    void runTurn({ regenerate: true }, answerKey, (refusal) => {
      // Refused before anything changed on the server: the old answer is still the answer.
      if (previous) {
        const restored = previous;
        setItems((list) => [...list, restored]);
      }
      setNotice({ ...refusal, retry: { kind: 'regenerate' } });
    });
  }, [runTurn]);

  const stop = useCallback(() => controllerRef.current?.abort(), []);

  const retry = useCallback(() => {
    if (!notice?.retry) return;
    if (notice.retry.kind === 'regenerate') regenerate();
    else send(notice.retry.text);
  }, [notice, regenerate, send]);

  /** Shows an earlier conversation (or a fresh one with no id); a running answer is stopped. */
  const load = useCallback(
    (id: string | undefined, messages: ChatMessage[] = []) => {
      controllerRef.current?.abort();
      controllerRef.current = null;
      setConversation(id);
      setNotice(null);
      setItems(
        messages.map((message) => ({
          key: message.id,
          role: message.role,
          content: message.content,
          // Still "streaming" when read back means the answer was cut off (a reload, a crash).
          status: message.status === 'streaming' ? 'stopped' : message.status,
          errorText: message.status === 'error' ? t('agents.chat.failedSaved') : null,
          citations: message.citations ?? [],
          steps: message.steps ?? [],
        })),
      );
    },
    [setConversation, t],
  );

  // Leaving the page stops the answer (the server keeps what streamed).
  useEffect(() => () => controllerRef.current?.abort(), []);

  return {
    items,
    notice,
    streaming,
    conversationId,
    conversationRef,
    send,
    stop,
    regenerate,
    retry,
    load,
    dismissNotice: () => setNotice(null),
  };
}

export type ChatController = ReturnType<typeof useChat>;
