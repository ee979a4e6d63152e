import { type Agent, agentRoutes, can } from '@athena/contract';
import { App } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../shared/hooks/use-api-mutation.ts';
import { useUserStore } from '../../stores/user-store.ts';
import { refreshAgents } from './agent-queries.ts';

/** What the signed-in person may do with an agent (docs/permissions.md: members only their own). */
export function useAgentPermissions(agent: Pick<Agent, 'created_by'> | undefined) {
  const team = useUserStore((s) => s.team);
  const userId = useUserStore((s) => s.userinfo?.id);
  if (!team || !agent) return { edit: false, delete: false, create: false };
  const isOwner = agent.created_by.id === userId;
  return {
    edit: can(team.role, 'agent.edit', { isOwner }),
    delete: can(team.role, 'agent.delete', { isOwner }),
    create: can(team.role, 'agent.create'),
  };
}

/** Duplicate and delete, with the confirmation and messages the list and the editor share. */
export function useAgentCommands(spaceId: string | null) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [busyId, setBusyId] = useState<string | null>(null);
  const duplicateAgent = useApiMutation(agentRoutes.duplicate);
  const deleteAgent = useApiMutation(agentRoutes.delete);

  const duplicate = async (agent: Agent): Promise<Agent | null> => {
    setBusyId(agent.id);
    try {
      const copy = await duplicateAgent.mutateAsync({ id: agent.id });
      void message.success(t('agents.duplicated', { name: copy.name }));
      await refreshAgents(spaceId);
      return copy;
    } catch {
      // The failure's notice is already showing.
      return null;
    } finally {
      setBusyId(null);
    }
  };

  /** Asks first; resolves true once the agent is gone. */
  const remove = (agent: Agent) =>
    new Promise<boolean>((resolve) => {
      modal.confirm({
        title: t('agents.delete.title', { name: agent.name }),
        content: t('agents.delete.text'),
        okText: t('agents.delete.ok'),
        okButtonProps: { danger: true, 'data-testid': 'agent-delete-confirm' },
        cancelText: t('agents.cancel'),
        onCancel: () => resolve(false),
        onOk: async () => {
          try {
            await deleteAgent.mutateAsync({ id: agent.id });
            void message.success(t('agents.delete.done', { name: agent.name }));
            await refreshAgents(spaceId);
            resolve(true);
          } catch {
            resolve(false);
          }
        },
      });
    });

  return { duplicate, remove, busyId };
}
