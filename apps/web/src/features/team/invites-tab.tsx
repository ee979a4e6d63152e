import { PlusOutlined } from '@ant-design/icons';
import { can, type Invite, type InviteStatus, type SpaceSummary, teamRoutes } from '@athena/contract';
import { Alert, App, Button, Empty, Flex, Table, type TableProps, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { dataAttrs, testId } from '../../lib/test-id.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { usePublicAddress } from '../../shared/hooks/use-public-address.ts';
import { RelativeTime } from '../../shared/ui/relative-time.tsx';
import { UserCell } from '../../shared/ui/user-cell.tsx';
import { CreateInviteModal } from './create-invite-modal.tsx';
import { CopyLinkButton } from './invite-link-copy.tsx';
import { useInvites } from './team-queries.ts';

const STATUS_COLORS: Record<InviteStatus, string> = {
  active: 'success',
  expired: 'default',
  revoked: 'error',
  exhausted: 'warning',
};

/** Invite links (only for those allowed to invite): create, copy, see their use, revoke. */
export function InvitesTab({ team }: { team: SpaceSummary }) {
  const { t } = useTranslation();
  const publicAddress = usePublicAddress();
  const { message, modal } = App.useApp();
  const revokeInvite = useApiMutation(teamRoutes.inviteRevoke);
  const [creating, setCreating] = useState(false);
  const invites = useInvites(team.id, true);
  const mayRevoke = can(team.role, 'invite.revoke');

  const revoke = (invite: Invite) =>
    modal.confirm({
      title: t('team.invites.revokeTitle'),
      content: t('team.invites.revokeText'),
      okText: t('team.invites.revokeOk'),
      okButtonProps: { danger: true, ...testId('invite-revoke-confirm') },
      onOk: async () => {
        try {
          await revokeInvite.mutateAsync({ id: invite.id });
          await queryClient.invalidateQueries({ queryKey: queryKeys.team.all(team.id) });
          void message.success(t('team.invites.revoked'));
        } catch {
          // The failure's notice is already showing.
        }
      },
    });

  const columns: TableProps<Invite>['columns'] = [
    {
      key: 'link',
      title: t('team.invites.columns.link'),
      render: (_, invite) => (
        <Flex align="center" gap={4}>
          <Tooltip title={publicAddress.link(invite.url)}>
            <Typography.Text code style={{ opacity: invite.status === 'active' ? 1 : 0.55 }} data-testid="invite-code">
              {invite.code}
            </Typography.Text>
          </Tooltip>
          {invite.status === 'active' ? (
            <CopyLinkButton url={publicAddress.link(invite.url)} testId="invite-copy" />
          ) : null}
        </Flex>
      ),
    },
    {
      key: 'status',
      title: t('team.invites.columns.status'),
      render: (_, invite) => (
        <Tag color={STATUS_COLORS[invite.status]} data-testid="invite-status" data-status={invite.status}>
          {t(`team.invites.status.${invite.status}`)}
        </Tag>
      ),
    },
    {
      key: 'uses',
      title: t('team.invites.columns.uses'),
      render: (_, invite) => (
        <span data-testid="invite-uses-count">
          {invite.max_uses === null
            ? t('team.invites.usesUnlimited', { count: invite.use_count })
            : t('team.invites.usesLimited', { count: invite.use_count, max: invite.max_uses })}
        </span>
      ),
    },
    {
      key: 'creator',
      title: t('team.invites.columns.creator'),
      render: (_, invite) => (
        <UserCell nickname={invite.created_by.nickname} avatarUrl={invite.created_by.avatar_url} size={24} />
      ),
    },
    {
      key: 'created',
      title: t('team.invites.columns.created'),
      render: (_, invite) => <RelativeTime iso={invite.created_at} />,
    },
    {
      key: 'expires',
      title: t('team.invites.columns.expires'),
      render: (_, invite) =>
        invite.expires_at ? (
          <RelativeTime iso={invite.expires_at} future testId="invite-expires" />
        ) : (
          <Typography.Text type="secondary" data-testid="invite-expires">
            {t('team.invites.never')}
          </Typography.Text>
        ),
    },
    {
      key: 'actions',
      title: t('team.invites.columns.actions'),
      align: 'right',
      render: (_, invite) =>
        mayRevoke && invite.status === 'active' ? (
          <Button size="small" type="link" danger onClick={() => revoke(invite)} data-testid="invite-revoke">
            {t('team.invites.revoke')}
          </Button>
        ) : null,
    },
  ];

  return (
    <Flex vertical gap={16} data-testid="invites-tab">
      <Flex wrap justify="space-between" align="center" gap={12}>
        <Typography.Text type="secondary" style={{ flex: '1 1 360px' }}>
          {t('team.invites.intro')}
        </Typography.Text>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="invite-create">
          {t('team.invites.create')}
        </Button>
      </Flex>
      {invites.isError ? (
        <Alert
          type="error"
          showIcon
          data-testid="invites-error"
          title={t('team.invites.loadFailed')}
          description={errorText(invites.error, currentLocale())}
          action={
            <Button size="small" onClick={() => void invites.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      ) : null}
      <Table<Invite>
        data-testid="invites-table"
        rowKey="id"
        columns={columns}
        dataSource={invites.data?.items ?? []}
        loading={invites.isFetching}
        scroll={{ x: 'max-content' }}
        onRow={(invite) => dataAttrs({ 'data-testid': `invite-row-${invite.id}`, 'data-code': invite.code })}
        locale={{
          emptyText: invites.isPending ? (
            ' '
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('team.invites.empty')} />
          ),
        }}
        pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
      />
      <CreateInviteModal open={creating} onClose={() => setCreating(false)} spaceId={team.id} />
    </Flex>
  );
}
