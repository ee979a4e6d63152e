import { can, type KnowledgeBase } from '@athena/contract';
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

/**
 * Groups have no owner of their own: whoever may create bases may sort them into groups, and the
 * server has the final say on renaming and deleting.
 */
export function useGroupPermissions() {
  const team = useUserStore((s) => s.team);
  const manage = team ? can(team.role, 'knowledge.create') : false;
  return { create: manage, rename: manage, delete: manage };
}
