import { MenuFoldOutlined, MenuUnfoldOutlined, PlusOutlined } from '@ant-design/icons';
import { type Agent, agentRoutes, agentStreams, can, ERRORS } from '@athena/contract';
import { App, Button, Flex, Tooltip, Typography, theme } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api } from '../../lib/api-client.ts';
import { wasHandled } from '../../lib/error-notice.ts';
import { useGo } from '../../lib/navigation.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { useUserStore } from '../../stores/user-store.ts';
import { useConversations } from './agent-queries.ts';
import { ChatPanel } from './chat/chat-panel.tsx';
import type { ChatTransport } from './chat/chat-types.ts';
import { useChat } from './chat/use-chat.ts';
import { ConversationList } from './conversation-list.tsx';

/** The ?c= query parameter keeps the open conversation across reloads and in the history. */
const PARAM = 'c';
/** The contract's limit for a playground message (chatRequest.message). */
const MAX_MESSAGE = 20_000;

/** Chat with the saved agent, with my earlier conversations beside it. */
export function Playground({ agent, spaceId }: { agent: Agent; spaceId: string }) {
  const { t } = useTranslation();
  const go = useGo();
  const { token } = theme.useToken();
  const { modal, message } = App.useApp();
  const role = useUserStore((state) => state.team?.role);
  const mayManageKeys = role !== undefined && can(role, 'model_key.manage');
  const renameConversation = useApiMutation(agentRoutes.renameConversation);
  const deleteConversation = useApiMutation(agentRoutes.deleteConversation);
  const [params, setParams] = useSearchParams();
  const selected = params.get(PARAM) ?? undefined;
  const conversations = useConversations(spaceId, agent.id);
  const [loading, setLoading] = useState(false);
  const [showHistory, setShowHistory] = useState(() => window.innerWidth >= 1280);

  const refreshList = () =>
    queryClient.invalidateQueries({ queryKey: queryKeys.agents.conversations(spaceId, agent.id) });
  const select = (id: string | undefined) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (id) next.set(PARAM, id);
        else next.delete(PARAM);
        return next;
      },
      { replace: true },
    );

  const transport = useMemo<ChatTransport<typeof agentStreams.chat>>(
    () => ({
      stream: agentStreams.chat,
      body: (request) => ({
        agent_id: agent.id,
        conversation_id: request.conversationId,
        message: request.message,
        regenerate: request.regenerate ?? false,
      }),
    }),
    [agent.id],
  );
  const chat = useChat({
    transport,
    onConversation: (id) => {
      select(id);
      void refreshList();
    },
    onTurnEnd: () => void refreshList(),
  });

  // Follow the URL: another conversation's messages, or a fresh chat. The chat's own new
  // conversation is already current (its ref moves before the URL does), so it is not reloaded.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of the selection reloads.
  useEffect(() => {
    if (selected === chat.conversationRef.current) return;
    if (!selected) {
      chat.load(undefined);
      return;
    }
    let cancelled = false;
    setLoading(true);
    api(agentRoutes.messages, { conversation_id: selected })
      .then(
        ({ items }) => {
          if (!cancelled) chat.load(selected, items);
        },
        (error: unknown) => {
          if (cancelled) return;
          if (!wasHandled(error)) void message.warning(t('agents.conversations.gone'));
          chat.load(undefined);
          select(undefined);
        },
      )
      .finally(() => {
        if (!cancelled) setLoading(false);
      });
    return () => {
      cancelled = true;
    };
  }, [selected]);

  const rename = async (id: string, title: string) => {
    try {
      await renameConversation.mutateAsync({ id, title });
      await refreshList();
      return true;
    } catch {
      // The failure's notice is already showing.
      return false;
    }
  };

  const remove = (conversation: { id: string; title: string }) =>
    modal.confirm({
      title: t('agents.conversations.deleteTitle'),
      content: t('agents.conversations.deleteText', { title: conversation.title }),
      okText: t('agents.conversations.delete'),
      okButtonProps: { danger: true, 'data-testid': 'conversation-delete-confirm' },
      cancelText: t('agents.cancel'),
      onOk: async () => {
        try {
          await deleteConversation.mutateAsync({ id: conversation.id });
          if (conversation.id === chat.conversationRef.current) {
            chat.load(undefined);
            select(undefined);
          }
          await refreshList();
        } catch {
          // The failure's notice is already showing.
        }
      },
    });

  return (
    <Flex vertical style={{ height: '100%', minHeight: 0 }} data-testid="playground">
      <Flex
        align="center"
        justify="space-between"
        gap={8}
        style={{ padding: '10px 14px', borderBottom: `1px solid ${token.colorSplit}` }}
      >
        <Flex align="center" gap={6} style={{ minWidth: 0 }}>
          <Tooltip title={showHistory ? t('agents.conversations.hide') : t('agents.conversations.show')}>
            <Button
              type="text"
              size="small"
              icon={showHistory ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
              onClick={() => setShowHistory((v) => !v)}
              aria-label={showHistory ? t('agents.conversations.hide') : t('agents.conversations.show')}
              data-testid="conversations-toggle"
            />
          </Tooltip>
          <Typography.Text strong>{t('agents.playground.title')}</Typography.Text>
          <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }}>
            {t('agents.playground.savedOnly')}
          </Typography.Text>
        </Flex>
        <Button
          size="small"
          icon={<PlusOutlined />}
          onClick={() => select(undefined)}
          disabled={!chat.conversationId}
          data-testid="playground-new-chat"
        >
          {t('agents.conversations.new')}
        </Button>
      </Flex>
      <Flex style={{ flex: 1, minHeight: 0 }}>
        {showHistory ? (
          <div style={{ width: 208, flex: 'none', borderInlineEnd: `1px solid ${token.colorSplit}`, minHeight: 0 }}>
            <ConversationList
              items={conversations.data?.items ?? []}
              loading={conversations.isPending}
              error={conversations.isError}
              activeId={chat.conversationId}
              onSelect={(id) => select(id)}
              onNew={() => select(undefined)}
              onRename={rename}
              onDelete={remove}
            />
          </div>
        ) : null}
        <ChatPanel
          chat={chat}
          agent={{
            name: agent.name,
            avatarUrl: agent.avatar_url,
            description: agent.description,
            openingMessage: agent.opening_message,
            suggestions: agent.suggested_questions,
          }}
          allowRegenerate
          loading={loading}
          maxLength={MAX_MESSAGE}
          linkCitations
          noticeExtra={(notice) =>
            // A platform model the balance cannot cover: the way out is one click away.
            notice.code === ERRORS.MODEL_BALANCE_INSUFFICIENT.code ? (
              <Button size="small" type="primary" onClick={() => go('feesCenter')} data-testid="chat-notice-recharge">
                {t('agents.chat.recharge')}
              </Button>
            ) : notice.code === ERRORS.NO_MODEL_KEY.code ? (
              // No chat key: whoever may add one gets the way there; others are told whom to ask.
              mayManageKeys ? (
                <Button size="small" type="primary" onClick={() => go('authCenter')} data-testid="chat-notice-add-key">
                  {t('agents.chat.addKey')}
                </Button>
              ) : (
                t('agents.chat.askForKey')
              )
            ) : null
          }
        />
      </Flex>
    </Flex>
  );
}
