import { can, type Member, type Role, teamRoutes } from '@athena/contract';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Flex } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { testId } from '../../lib/test-id.ts';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { useUserStore } from '../../stores/user-store.ts';
import { switchToFallbackSpace } from './space-switching.ts';

/** Refreshes the member list, the audit log and the space (member count, my own role). */
export async function refreshTeam(spaceId: string) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.team.all(spaceId) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.space.detail(spaceId) }),
  ]);
}

/**
 * What I may do to one member, decided by the contract's permission table with their role:
 * change role (creator: admin ⇄ member), transfer ownership (creator), remove (creator, or an
 * admin for members). Nothing for myself; leaving has its own button.
 */
export function MemberActions({ member, myRole, spaceId }: { member: Member; myRole: Role; spaceId: string }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [busy, setBusy] = useState(false);
  const updateRole = useApiMutation(teamRoutes.memberUpdateRole);
  const removeMember = useApiMutation(teamRoutes.memberRemove);
  const transferTeam = useApiMutation(teamRoutes.transfer);
  if (member.is_me) return null;

  const targetRole = member.role;
  const mayChangeRole = targetRole !== 1 && can(myRole, 'member.change_role', { targetRole });
  const mayTransfer = can(myRole, 'team.transfer', { targetRole });
  const mayRemove = can(myRole, 'member.remove', { targetRole });
  const name = member.nickname;

  const changeRole = async () => {
    const role = targetRole === 2 ? 3 : 2;
    setBusy(true);
    try {
      await updateRole.mutateAsync({ user_id: member.user_id, role });
      await refreshTeam(spaceId);
      void message.success(
        t('team.members.roleChanged', { name, role: t(role === 2 ? 'roles.admin' : 'roles.member') }),
      );
    } catch {
      // The failure's notice is already showing.
    } finally {
      setBusy(false);
    }
  };

  /** A confirmation whose OK runs `action`; a failure shows its notice and closes the dialog. */
  const confirm = (
    options: { title: string; content: string; okText: string; id: string; danger?: boolean },
    action: () => Promise<string>,
  ) =>
    modal.confirm({
      title: options.title,
      content: options.content,
      okText: options.okText,
      okButtonProps: { danger: options.danger, ...testId(options.id) },
      onOk: async () => {
        try {
          void message.success(await action());
        } catch {
          // The failure's notice is already showing.
        }
      },
    });

  const remove = () =>
    confirm(
      {
        title: t('team.members.removeTitle', { name }),
        content: t('team.members.removeText'),
        okText: t('team.members.removeOk'),
        id: 'member-remove-confirm',
        danger: true,
      },
      async () => {
        await removeMember.mutateAsync({ user_id: member.user_id });
        await refreshTeam(spaceId);
        return t('team.members.removed', { name });
      },
    );

  const transfer = () =>
    confirm(
      {
        title: t('team.members.transferTitle', { name }),
        content: t('team.members.transferText', { name }),
        okText: t('team.members.transferOk'),
        id: 'member-transfer-confirm',
        danger: true,
      },
      async () => {
        await transferTeam.mutateAsync({ user_id: member.user_id });
        // My own role changed too: the space (and so the store and this page) must follow.
        await refreshTeam(spaceId);
        await queryClient.invalidateQueries({ queryKey: queryKeys.session.all() });
        return t('team.members.transferred', { name });
      },
    );

  if (!mayChangeRole && !mayTransfer && !mayRemove) return null;
  return (
    <Flex gap={4} wrap justify="flex-end" data-testid={`member-actions-${member.user_id}`}>
      {mayChangeRole ? (
        <Button
          size="small"
          type="link"
          loading={busy}
          onClick={() => void changeRole()}
          data-testid="member-role-toggle"
        >
          {targetRole === 2 ? t('team.members.makeMember') : t('team.members.makeAdmin')}
        </Button>
      ) : null}
      {mayTransfer ? (
        <Button size="small" type="link" onClick={transfer} data-testid="member-transfer">
          {t('team.members.transfer')}
        </Button>
      ) : null}
      {mayRemove ? (
        <Button size="small" type="link" danger onClick={remove} data-testid="member-remove">
          {t('team.members.remove')}
        </Button>
      ) : null}
    </Flex>
  );
}

/** "Leave team": members and admins leave (then land in their personal space); the creator learns why not. */
export function useLeaveTeam() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const team = useUserStore((s) => s.team);
  // Leaving ends in another space: a failure of either step shows the notice.
  const leave = useMutation({
    mutationFn: async () => {
      await api(teamRoutes.memberLeave);
      return switchToFallbackSpace();
    },
  });

  return () => {
    if (!team) return;
    if (team.role === 1) {
      modal.info({
        title: t('team.members.creatorLeaveTitle'),
        content: t('team.members.creatorLeaveText'),
        okText: t('team.members.gotIt'),
        okButtonProps: { ...testId('member-leave-creator-ok') },
      });
      return;
    }
    modal.confirm({
      title: t('team.members.leaveTitle', { team: team.name }),
      content: t('team.members.leaveText'),
      okText: t('team.members.leaveOk'),
      okButtonProps: { danger: true, ...testId('member-leave-confirm') },
      onOk: async () => {
        try {
          const next = await leave.mutateAsync();
          void message.success(t('team.members.left', { team: team.name, space: next?.name ?? '' }));
        } catch {
          // The failure's notice is already showing.
        }
      },
    });
  };
}
