import { ApiOutlined, MessageOutlined, RobotOutlined } from '@ant-design/icons';
import { type ChatConversation, can, ERRORS } from '@athena/contract';
import { Button, Empty, Flex, Grid, Result, Select, Skeleton, theme } from 'antd';
import { type ReactNode, useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useSpaceId } from '../../shared/hooks/use-current-space.ts';
import { ListLoadError } from '../../shared/ui/list-page-parts.tsx';
import { useUserStore } from '../../stores/user-store.ts';
import { isFiltered, listFilters } from './chat-filters.ts';
import { refreshScene, useConversationList, useSceneSettings } from './chat-history-queries.ts';
import { ConnectDrawer } from './connect-drawer.tsx';
import { ConversationList } from './conversation-list.tsx';
import { FilterBar } from './filter-bar.tsx';
import { NoHistoryYet } from './no-history-yet.tsx';
import { ReplySettingsDrawer } from './reply-settings-drawer.tsx';
import { type LiveSubscribe, ThreadPanel } from './thread-panel.tsx';
import { useChatLive } from './use-chat-live.ts';
import { useChatScene } from './use-chat-scene.ts';
import { useChatUrl } from './use-chat-url.ts';

const LIST_WIDTH = 380;

interface Props {
  /** The page's title, or null inside an embed. */
  title: ReactNode;
  /** What goes at the header's end besides the channel button (the embed's language switch). */
  extra?: ReactNode;
}

/**
 * Chat history: the scene picker and channel set-up on top; filters and conversations on the left,
 * the open conversation on the right (one at a time on a phone). Everything but the scene lives in
 * the address (use-chat-url.ts); changes arrive live (use-chat-live.ts).
 */
export function ChatHistoryView({ title, extra }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const narrow = !Grid.useBreakpoint().md;
  const spaceId = useSpaceId();
  const role = useUserStore((s) => s.team?.role);
  const canConfigure = role !== undefined && can(role, 'chat.configure');
  const scene = useChatScene();
  const sceneId = scene.sceneId;
  const settings = useSceneSettings(spaceId, sceneId);
  const url = useChatUrl(settings.data?.send_type_options);
  const filters = url.filters;
  const body = useMemo(() => listFilters(filters), [filters]);
  const filtered = isFiltered(filters);
  const hasHistory = (settings.data?.conversation_count ?? 0) > 0 || filtered || url.conversationId !== null;
  const list = useConversationList(spaceId, sceneId, body, hasHistory);
  const [drawer, setDrawer] = useState<'connect' | 'reply' | null>(null);

  // The open thread listens for its own conversation's changes through this.
  const listeners = useRef(new Set<(ids: string[]) => void>());
  const subscribe = useCallback<LiveSubscribe>((listener) => {
    listeners.current.add(listener);
    return () => void listeners.current.delete(listener);
  }, []);
  useChatLive({ spaceId, sceneId, enabled: settings.isSuccess }, (ids) => {
    if (sceneId !== null) void refreshScene(spaceId, sceneId);
    for (const listener of listeners.current) listener(ids);
  });

  const sceneOptions = scene.options.map((option) => ({ value: option.type, label: option.label }));
  const sceneLabel = sceneOptions.find((option) => option.value === sceneId)?.label ?? '';
  const header = (
    <Flex align="center" gap={12} wrap style={{ marginBottom: 12 }}>
      {title}
      <Select
        value={sceneId ?? undefined}
        options={sceneOptions}
        onChange={scene.setScene}
        loading={scene.scenes.isPending}
        style={{ minWidth: 200 }}
        prefix={<span style={{ color: token.colorTextTertiary }}>{t('chatHistory.scene')}</span>}
        data-testid="chat-scene"
        popupMatchSelectWidth={false}
      />
      <Flex gap={8} align="center" style={{ marginInlineStart: 'auto' }}>
        {settings.data ? (
          <Button icon={<RobotOutlined />} onClick={() => setDrawer('reply')} data-testid="chat-reply-settings">
            {t('chatHistory.reply.button')}
          </Button>
        ) : null}
        {settings.data ? (
          <Button icon={<ApiOutlined />} onClick={() => setDrawer('connect')} data-testid="chat-connect">
            {canConfigure ? t('chatHistory.connect') : t('chatHistory.howMessagesArrive')}
          </Button>
        ) : null}
        {extra}
      </Flex>
    </Flex>
  );

  const frame = (content: ReactNode) => (
    <Flex vertical style={{ height: '100%', minHeight: 0 }} data-testid="page-chatHistory">
      {header}
      <div
        style={{
          flex: 1,
          minHeight: 0,
          background: token.colorBgContainer,
          borderRadius: token.borderRadiusLG,
          border: `1px solid ${token.colorBorderSecondary}`,
          overflow: 'hidden',
        }}
      >
        {content}
      </div>
      {settings.data && sceneId !== null ? (
        <>
          <ConnectDrawer
            open={drawer === 'connect'}
            onClose={() => setDrawer(null)}
            settings={settings.data}
            canConfigure={canConfigure}
            spaceId={spaceId}
            sceneId={sceneId}
          />
          <ReplySettingsDrawer
            open={drawer === 'reply'}
            onClose={() => setDrawer(null)}
            settings={settings.data}
            canConfigure={canConfigure}
            spaceId={spaceId}
            sceneId={sceneId}
          />
        </>
      ) : null}
    </Flex>
  );

  if (scene.scenes.isError) {
    return frame(
      <div style={{ padding: 16 }}>
        <ListLoadError
          title={t('chatHistory.sceneLoadFailed')}
          error={scene.scenes.error}
          onRetry={() => void scene.scenes.refetch()}
          testId="chat-scenes-error"
        />
      </div>,
    );
  }
  if (scene.scenes.isSuccess && sceneId === null) {
    return frame(<Empty style={{ marginTop: 64 }} description={t('chatHistory.noScenes')} />);
  }
  if (settings.isError) {
    const noHistory = settings.error instanceof ApiError && settings.error.code === ERRORS.CHAT_SCENE_INVALID.code;
    return frame(
      <Result
        status={noHistory ? 'info' : 'warning'}
        title={noHistory ? t('chatHistory.sceneInvalid') : t('chatHistory.settingsLoadFailed')}
        subTitle={errorText(settings.error, currentLocale())}
        extra={<Button onClick={() => void settings.refetch()}>{t('common.retry')}</Button>}
        data-testid="chat-settings-error"
      />,
    );
  }
  if (!settings.data || sceneId === null) {
    return frame(
      <div style={{ padding: 16 }} data-testid="chat-loading">
        <Skeleton active avatar paragraph={{ rows: 8 }} />
      </div>,
    );
  }
  if (!hasHistory) {
    return frame(
      <NoHistoryYet
        settings={settings.data}
        sceneLabel={sceneLabel}
        canConfigure={canConfigure}
        spaceId={spaceId}
        sceneId={sceneId}
      />,
    );
  }

  const openConversation = (conversation: ChatConversation) =>
    url.open(conversation.id, filtered && conversation.matched ? conversation.matched.id : null);
  const fallback = list.data?.pages.flatMap((page) => page.items).find((item) => item.id === url.conversationId);
  const showList = !narrow || url.conversationId === null;
  const showThread = !narrow || url.conversationId !== null;

  return frame(
    <Flex style={{ height: '100%' }}>
      {showList ? (
        <Flex
          vertical
          style={{
            width: narrow ? '100%' : LIST_WIDTH,
            flex: 'none',
            borderInlineEnd: narrow ? undefined : `1px solid ${token.colorBorderSecondary}`,
          }}
        >
          <div style={{ padding: 12, borderBottom: `1px solid ${token.colorBorderSecondary}` }}>
            <FilterBar
              filters={filters}
              sendTypeOptions={settings.data.send_type_options}
              spaceId={spaceId}
              sceneId={sceneId}
              onChange={url.setFilters}
            />
            {filtered ? (
              <Flex justify="flex-end" style={{ marginTop: 4, marginBottom: -6 }}>
                <Button type="link" size="small" onClick={url.clearFilters} data-testid="chat-filters-clear">
                  {t('chatHistory.filters.clear')}
                </Button>
              </Flex>
            ) : null}
          </div>
          <div style={{ flex: 1, minHeight: 0 }}>
            <ConversationList
              query={list}
              activeId={url.conversationId}
              keyword={body.keyword}
              showMatch={body.keyword !== '' || body.send_type !== ''}
              filtered={filtered}
              resetKey={JSON.stringify(body)}
              onOpen={openConversation}
              onClearFilters={url.clearFilters}
            />
          </div>
        </Flex>
      ) : null}
      {showThread ? (
        <div style={{ flex: 1, minWidth: 0 }}>
          {url.conversationId ? (
            <ThreadPanel
              key={url.conversationId}
              spaceId={spaceId}
              sceneId={sceneId}
              conversationId={url.conversationId}
              anchorId={url.anchorId}
              fallback={fallback}
              keyword={body.keyword}
              narrow={narrow}
              canSend={settings.data.can_send}
              replyMode={settings.data.reply.mode}
              subscribe={subscribe}
              onClose={url.close}
              onDropAnchor={url.dropAnchor}
            />
          ) : (
            <Empty
              image={<MessageOutlined style={{ fontSize: 48, color: token.colorTextQuaternary }} />}
              description={t('chatHistory.thread.pick')}
              style={{ marginTop: '22vh' }}
              data-testid="chat-thread-pick"
            />
          )}
        </div>
      ) : null}
    </Flex>,
  );
}
