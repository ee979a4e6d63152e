import { CheckCircleOutlined } from '@ant-design/icons';
import { inviteRoutes, type RouteData } from '@athena/contract';
import { useMutation } from '@tanstack/react-query';
import { Alert, App, Button, Flex, Modal, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { useGo } from '../../lib/navigation.ts';
import { signOut } from '../../lib/session.ts';
import { useUserStore } from '../../stores/user-store.ts';
import { switchToSpace } from '../team/space-switching.ts';

type Preview = RouteData<typeof inviteRoutes.get>;

interface Props {
  code: string;
  invite: Preview;
  onStale: () => void;
  /** The app's own login panel, handed in by the shell (features do not reach into it). */
  loginPanel: ReactNode;
}

/**
 * What the visitor can do with the link: sign in (the app's own login panel, in a dialog, then
 * back here), join with one click, go to a team they are already in — or read why the link no
 * longer works.
 */
export function InviteActions({ code, invite, onStale, loginPanel }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const go = useGo();
  const token = useUserStore((s) => s.token);
  const user = useUserStore((s) => s.userinfo);
  const [loginOpen, setLoginOpen] = useState(false);
  const [joining, setJoining] = useState(false);
  // Joining ends in the team's space: a failure of either step shows the error notice.
  const join = useMutation({
    mutationFn: async () => {
      const result = await api(inviteRoutes.accept, { code });
      await switchToSpace(result.space.id);
      return result;
    },
  });

  /** Accepting is idempotent, so it is also how "go to the team" finds the team's space. */
  const enter = async () => {
    setJoining(true);
    try {
      const result = await join.mutateAsync();
      if (!result.already_member) void message.success(t('invite.joined', { team: result.space.name }));
      go('dashboard');
    } catch {
      // The notice is already showing; the link may have stopped working meanwhile.
      onStale();
    } finally {
      setJoining(false);
    }
  };

  const signedInAs =
    token && user ? (
      <Typography.Text type="secondary" style={{ fontSize: 13 }} data-testid="invite-signed-in-as">
        {t('invite.signedInAs', { name: user.nickname })} ·{' '}
        <Typography.Link onClick={() => void signOut()} data-testid="invite-switch-account">
          {t('invite.switchAccount')}
        </Typography.Link>
      </Typography.Text>
    ) : null;

  if (token && invite.already_member) {
    return (
      <Flex vertical gap={12} style={{ width: '100%' }}>
        <Alert
          type="info"
          showIcon
          icon={<CheckCircleOutlined />}
          title={t('invite.alreadyMember', { team: invite.team_name })}
          data-testid="invite-already-member"
          style={{ textAlign: 'start' }}
        />
        <Button
          type="primary"
          size="large"
          block
          loading={joining}
          onClick={() => void enter()}
          data-testid="invite-go-team"
        >
          {t('invite.goToTeam')}
        </Button>
        {signedInAs}
      </Flex>
    );
  }

  if (invite.status !== 'active') {
    return (
      <Flex vertical gap={12} style={{ width: '100%' }}>
        <Alert
          type="warning"
          showIcon
          title={t(`invite.unavailable.${invite.status}`)}
          description={t('invite.askForNew')}
          data-testid="invite-unavailable"
          data-status={invite.status}
          style={{ textAlign: 'start' }}
        />
        <Button block onClick={() => go('dashboard')} data-testid="invite-open-app">
          {t('invite.openApp')}
        </Button>
      </Flex>
    );
  }

  if (!token) {
    return (
      <Flex vertical gap={8} style={{ width: '100%' }}>
        <Button type="primary" size="large" block onClick={() => setLoginOpen(true)} data-testid="invite-sign-in">
          {t('invite.signInToJoin')}
        </Button>
        <Typography.Text type="secondary" style={{ fontSize: 13 }}>
          {t('invite.signInHint')}
        </Typography.Text>
        <Modal
          open={loginOpen}
          onCancel={() => setLoginOpen(false)}
          footer={null}
          width={440}
          centered
          destroyOnHidden
          aria-label={t('invite.loginTitle', { team: invite.team_name })}
        >
          <div data-testid="invite-login-modal" style={{ paddingTop: 20 }}>
            {loginPanel}
          </div>
        </Modal>
      </Flex>
    );
  }

  return (
    <Flex vertical gap={8} style={{ width: '100%' }}>
      <Button
        type="primary"
        size="large"
        block
        loading={joining}
        onClick={() => void enter()}
        data-testid="invite-join"
      >
        {t('invite.join')}
      </Button>
      {signedInAs}
    </Flex>
  );
}
