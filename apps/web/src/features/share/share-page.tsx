import { PlusOutlined } from '@ant-design/icons';
import { ERRORS, shareRoutes } from '@athena/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Flex, Layout, Result, Spin, Typography, theme } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ApiError, api, errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { Brand } from '../../shared/ui/brand.tsx';
import { LanguageSwitcher } from '../../shared/ui/language-switcher.tsx';
import { AgentAvatar } from '../agents/agent-avatar.tsx';
import { ShareChat, type ShareChatHandle } from './share-chat.tsx';

/**
 * /share/:code, outside the app's layout and open to anyone with the link: the agent's name and
 * picture, then a chat. A link that was turned off (or never existed) says so plainly.
 */
export function SharePage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { code = '' } = useParams();
  const info = useQuery({
    queryKey: queryKeys.share(code),
    queryFn: () => api(shareRoutes.info, { code }),
    enabled: Boolean(code),
    staleTime: 60_000,
  });
  const chatRef = useRef<ShareChatHandle>(null);
  const [hasConversation, setHasConversation] = useState(false);

  useEffect(() => {
    if (info.data) document.title = `${info.data.name} · ${t('app.name')}`;
  }, [info.data, t]);

  const invalid = info.error instanceof ApiError && info.error.code === ERRORS.SHARE_NOT_FOUND.code;
  let body: React.ReactNode;
  if (info.isPending) {
    body = (
      <Flex align="center" justify="center" style={{ flex: 1 }} data-testid="share-loading">
        <Spin size="large" />
      </Flex>
    );
  } else if (info.isError) {
    body = (
      <Flex align="center" justify="center" style={{ flex: 1, padding: 24 }}>
        {invalid ? (
          <Result
            status="warning"
            title={t('share.invalidTitle')}
            subTitle={t('share.invalidText')}
            data-testid="share-invalid"
          />
        ) : (
          <Alert
            type="error"
            showIcon
            data-testid="share-error"
            title={t('share.loadFailed')}
            description={errorText(info.error, currentLocale())}
            action={<Button onClick={() => void info.refetch()}>{t('common.retry')}</Button>}
          />
        )}
      </Flex>
    );
  } else {
    const agent = info.data;
    body = (
      <Flex vertical style={{ flex: 1, minHeight: 0, width: '100%', maxWidth: 920, margin: '0 auto' }}>
        <Flex align="center" gap={12} style={{ padding: '16px 20px 12px' }} data-testid="share-agent">
          <AgentAvatar name={agent.name} url={agent.avatar_url} size={44} />
          <Flex vertical style={{ minWidth: 0, flex: 1 }}>
            <Typography.Title level={4} style={{ margin: 0 }} ellipsis data-testid="share-agent-name">
              {agent.name}
            </Typography.Title>
            {agent.description ? (
              <Typography.Text
                type="secondary"
                ellipsis={{ tooltip: agent.description }}
                data-testid="share-agent-description"
              >
                {agent.description}
              </Typography.Text>
            ) : null}
          </Flex>
          {hasConversation ? (
            <Button icon={<PlusOutlined />} onClick={() => chatRef.current?.startOver()} data-testid="share-new-chat">
              {t('share.newChat')}
            </Button>
          ) : null}
        </Flex>
        <div
          style={{
            flex: 1,
            minHeight: 0,
            display: 'flex',
            margin: '0 12px 12px',
            background: token.colorBgContainer,
            borderRadius: 12,
            border: `1px solid ${token.colorBorderSecondary}`,
            overflow: 'hidden',
          }}
        >
          <ShareChat
            code={code}
            handleRef={chatRef}
            onConversationChange={setHasConversation}
            agent={{
              name: agent.name,
              avatarUrl: agent.avatar_url,
              description: agent.description,
              openingMessage: agent.opening_message,
              suggestions: agent.suggested_questions,
            }}
          />
        </div>
      </Flex>
    );
  }

  return (
    <Layout style={{ height: '100dvh', minHeight: 480 }} data-testid="page-share">
      <Flex
        align="center"
        justify="space-between"
        style={{
          height: 56,
          padding: '0 16px',
          flex: 'none',
          background: token.colorBgContainer,
          borderBottom: `1px solid ${token.colorSplit}`,
        }}
      >
        <Brand size={26} />
        <LanguageSwitcher />
      </Flex>
      <Flex vertical style={{ flex: 1, minHeight: 0 }}>
        {body}
      </Flex>
      <Typography.Text
        type="secondary"
        style={{ textAlign: 'center', fontSize: 12, padding: '0 0 10px', flex: 'none' }}
      >
        {t('share.poweredBy')}
      </Typography.Text>
    </Layout>
  );
}
