import { can, type KnowledgeBase, type KnowledgeGroup } from '@athena/contract';
import { useUserStore } from '../../stores/user-store.ts';

/**
 * What the signed-in person may do with a base (docs/permissions.md: creator and admins any base,
 * members only their own). Editing covers the base's files and segments too. Everyone may look and
 * run a hit test.
 */
export function useKnowledgePermissions(base: Pick<KnowledgeBase, 'created_by'> | undefined) {
  const team = useUserStore((s) => s.team);
  const userId = useUserStore((s) => s.userinfo?.id);
  if (!team) return { create: false, edit: false, delete: false };
  const create = can(team.role, 'knowledge.create');
  if (!base) return { create, edit: false, delete: false };
  const isOwner = base.created_by.id === userId;
  return {
    create,
    edit: can(team.role, 'knowledge.edit', { isOwner }),
    delete: can(team.role, 'knowledge.delete', { isOwner }),
  };
}

/** Groups follow the base rules by their creator: members rename and delete only their own. */
export function useGroupPermissions() {
  const team = useUserStore((s) => s.team);
  const userId = useUserStore((s) => s.userinfo?.id);
  return {
    create: team ? can(team.role, 'knowledge.create') : false,
    rename: (group: Pick<KnowledgeGroup, 'created_by'>) =>
      team ? can(team.role, 'knowledge.edit', { isOwner: group.created_by.id === userId }) : false,
    delete: (group: Pick<KnowledgeGroup, 'created_by'>) =>
      team ? can(team.role, 'knowledge.delete', { isOwner: group.created_by.id === userId }) : false,
  };
}
