import { CheckCircleOutlined, DesktopOutlined, LogoutOutlined, MobileOutlined } from '@ant-design/icons';
import { accountRoutes } from '@athena/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Flex, Popconfirm, Skeleton, Tag, Tooltip, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { userTime } from '../../lib/user-time.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { useNow } from '../../shared/hooks/use-now.ts';
import { summarizeUserAgent } from './user-agent.ts';

/** Where I am signed in: device, address, last activity; sign out one or all the others. */
export function SessionsCard() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const { token } = theme.useToken();
  const now = useNow();
  // Always fresh when the page opens: a sign-in elsewhere must show up here.
  const sessions = useQuery({
    queryKey: queryKeys.account.sessions(),
    queryFn: () => api(accountRoutes.sessions),
    staleTime: 0,
  });
  const [revoking, setRevoking] = useState<string | null>(null);
  const revokeSession = useApiMutation(accountRoutes.revokeSession);
  const revokeOtherSessions = useApiMutation(accountRoutes.revokeOtherSessions);

  const revoke = async (id: string) => {
    setRevoking(id);
    try {
      await revokeSession.mutateAsync({ id });
      void message.success(t('account.sessionRevoked'));
      await queryClient.invalidateQueries({ queryKey: queryKeys.account.sessions() });
    } catch {
      // The failure's notice is already showing.
    } finally {
      setRevoking(null);
    }
  };

  const others = sessions.data?.items.filter((s) => !s.current) ?? [];

  const revokeOthers = () =>
    modal.confirm({
      title: t('account.revokeOthersTitle'),
      content: t('account.revokeOthersText', { count: others.length }),
      okText: t('account.revokeOthers'),
      okButtonProps: { danger: true },
      cancelText: t('account.cancel'),
      onOk: async () => {
        try {
          const result = await revokeOtherSessions.mutateAsync(undefined);
          void message.success(t('account.revokedOthers', { count: result.revoked }));
          await queryClient.invalidateQueries({ queryKey: queryKeys.account.sessions() });
        } catch {
          // The failure's notice is already showing.
        }
      },
    });

  const body = () => {
    if (sessions.isPending) return <Skeleton active data-testid="sessions-loading" paragraph={{ rows: 3 }} />;
    if (sessions.isError) {
      return (
        <Alert
          data-testid="sessions-error"
          type="warning"
          showIcon
          title={t('account.sessionsError')}
          description={errorText(sessions.error, currentLocale())}
          action={
            <Button size="small" onClick={() => void sessions.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      );
    }
    // Mine first, then the most recently active.
    const items = [...sessions.data.items].sort(
      (a, b) => Number(b.current) - Number(a.current) || b.last_seen_at.localeCompare(a.last_seen_at),
    );
    return (
      <>
        {items.map((session, index) => {
          const device = summarizeUserAgent(session.user_agent);
          const name = [device.browser, device.os].filter(Boolean).join(' · ') || t('account.unknownDevice');
          const lastSeen = userTime(session.last_seen_at);
          return (
            <Flex
              key={session.id}
              align="center"
              gap={16}
              wrap
              data-testid="session-row"
              data-current={String(session.current)}
              style={{
                padding: '12px 0',
                borderBottom: index < items.length - 1 ? `1px solid ${token.colorSplit}` : undefined,
              }}
            >
              <Flex
                align="center"
                justify="center"
                style={{ width: 40, height: 40, borderRadius: 10, background: token.colorFillTertiary, fontSize: 18 }}
              >
                {device.mobile ? <MobileOutlined /> : <DesktopOutlined />}
              </Flex>
              <Flex vertical style={{ flex: 1, minWidth: 200 }}>
                <Flex align="center" gap={8} wrap>
                  <Typography.Text strong data-testid="session-device" title={session.user_agent ?? undefined}>
                    {name}
                  </Typography.Text>
                  {session.current ? (
                    <Tag color="green" data-testid="session-this-device" style={{ marginInlineEnd: 0 }}>
                      {t('account.thisDevice')}
                    </Tag>
                  ) : null}
                </Flex>
                <Typography.Text type="secondary" style={{ fontSize: 13 }}>
                  {session.ip ?? t('account.unknownIp')}
                  {' · '}
                  <Tooltip title={lastSeen.format('YYYY-MM-DD HH:mm')}>
                    <span data-testid="session-last-active">
                      {t('account.lastActive', { time: lastSeen.from(now) })}
                    </span>
                  </Tooltip>
                  {' · '}
                  {t('account.signedInAt', { time: userTime(session.created_at).format('YYYY-MM-DD HH:mm') })}
                </Typography.Text>
              </Flex>
              {session.current ? null : (
                <Popconfirm
                  title={t('account.revokeTitle')}
                  description={t('account.revokeText', { device: name })}
                  okText={t('account.revoke')}
                  cancelText={t('account.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={() => revoke(session.id)}
                >
                  <Button data-testid="session-revoke" loading={revoking === session.id}>
                    {t('account.revoke')}
                  </Button>
                </Popconfirm>
              )}
            </Flex>
          );
        })}
        {others.length === 0 ? (
          <Typography.Text
            type="secondary"
            data-testid="sessions-empty"
            style={{ display: 'block', paddingTop: 12, borderTop: `1px dashed ${token.colorSplit}` }}
          >
            <CheckCircleOutlined style={{ color: token.colorSuccess, marginInlineEnd: 6 }} />
            {t('account.noOtherSessions')}
          </Typography.Text>
        ) : null}
      </>
    );
  };

  return (
    <Card
      title={t('account.sessionsTitle')}
      data-testid="sessions-card"
      extra={
        <Button
          data-testid="sessions-revoke-others"
          danger
          icon={<LogoutOutlined />}
          disabled={others.length === 0}
          onClick={revokeOthers}
        >
          {t('account.revokeOthers')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
        {t('account.sessionsHint')}
      </Typography.Paragraph>
      {body()}
    </Card>
  );
}
