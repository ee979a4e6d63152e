import { TeamOutlined, UserOutlined } from '@ant-design/icons';
import { ERRORS, inviteRoutes } from '@athena/contract';
import { useQuery } from '@tanstack/react-query';
import { Avatar, Button, Card, Divider, Flex, Result, Skeleton, Tag, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ApiError, api, errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useGo } from '../../lib/navigation.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { Brand } from '../../shared/ui/brand.tsx';
import { LanguageSwitcher } from '../../shared/ui/language-switcher.tsx';
import { useUserStore } from '../../stores/user-store.ts';
import { InviteActions } from './invite-actions.tsx';

const STATUS_COLORS = { active: 'success', expired: 'default', revoked: 'error', exhausted: 'warning' } as const;

/**
 * /invite/:code, outside the main layout and open to signed-out visitors: which team, who
 * invites, how many members, whether the link still works — then sign in and/or join. The shell
 * passes its login panel in for signing in from here.
 */
export function InvitePage({ loginPanel }: { loginPanel: ReactNode }) {
  const { t } = useTranslation();
  const { token: design } = theme.useToken();
  const { code = '' } = useParams();
  const token = useUserStore((s) => s.token);
  const go = useGo();
  // Keyed by the session: signing in turns "who are you?" into "already a member?".
  const preview = useQuery({
    queryKey: queryKeys.invite.preview(code, token),
    queryFn: () => api(inviteRoutes.get, { code }),
    enabled: Boolean(code),
  });
  const notFound = preview.error instanceof ApiError && preview.error.code === ERRORS.INVITE_NOT_FOUND.code;

  let body: ReactNode;
  if (preview.isPending) {
    body = <Skeleton active avatar paragraph={{ rows: 4 }} data-testid="invite-loading" />;
  } else if (preview.isError) {
    body = (
      <Result
        status={notFound ? 'warning' : 'error'}
        title={notFound ? t('invite.invalidTitle') : t('invite.loadFailed')}
        subTitle={errorText(preview.error, currentLocale())}
        data-testid={notFound ? 'invite-invalid' : 'invite-error'}
        extra={
          notFound ? (
            <Button onClick={() => go('dashboard')} data-testid="invite-open-app">
              {t('invite.openApp')}
            </Button>
          ) : (
            <Button type="primary" onClick={() => void preview.refetch()}>
              {t('common.retry')}
            </Button>
          )
        }
      />
    );
  } else {
    const invite = preview.data;
    body = (
      <Flex vertical align="center" gap={12} style={{ textAlign: 'center' }} data-testid="invite-preview">
        <Avatar shape="square" size={72} icon={<TeamOutlined />} style={{ background: design.colorPrimary }} />
        <Typography.Title level={3} style={{ margin: 0, wordBreak: 'break-word' }} data-testid="invite-team-name">
          {invite.team_name}
        </Typography.Title>
        <Flex align="center" gap={8} justify="center" wrap data-testid="invite-inviter">
          <Avatar size={24} src={invite.inviter.avatar_url ?? undefined} icon={<UserOutlined />} />
          <Typography.Text>
            {t('invite.invitesYou', { inviter: invite.inviter.nickname, team: invite.team_name })}
          </Typography.Text>
        </Flex>
        <Flex align="center" gap={12} justify="center">
          <Typography.Text type="secondary" data-testid="invite-member-count">
            <TeamOutlined />{' '}
            {t(invite.member_count === 1 ? 'invite.memberCountOne' : 'invite.memberCount', {
              count: invite.member_count,
            })}
          </Typography.Text>
          <Tag color={STATUS_COLORS[invite.status]} data-testid="invite-status" data-status={invite.status}>
            {t(`invite.status.${invite.status}`)}
          </Tag>
        </Flex>
        <Divider style={{ margin: '8px 0' }} />
        <InviteActions code={code} invite={invite} onStale={() => void preview.refetch()} loginPanel={loginPanel} />
      </Flex>
    );
  }

  return (
    <Flex vertical style={{ minHeight: '100vh', background: design.colorBgLayout }} data-testid="invite-page">
      <Flex
        align="center"
        justify="space-between"
        style={{
          height: 56,
          padding: '0 24px',
          background: design.colorBgContainer,
          borderBottom: `1px solid ${design.colorBorderSecondary}`,
        }}
      >
        <Brand size={26} />
        <LanguageSwitcher />
      </Flex>
      <Flex justify="center" style={{ padding: '48px 16px' }}>
        <Card style={{ width: '100%', maxWidth: 480 }} styles={{ body: { padding: 32 } }}>
          {body}
        </Card>
      </Flex>
    </Flex>
  );
}
