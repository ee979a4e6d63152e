import type { Role, RoleName } from './roles.ts';

/**
 * Who may do what in a team (space). One table for the server (enforced in services) and the web
 * (what to show). docs/permissions.md explains it.
 *
 * - `all`: any target.
 * - `lower`: only people whose role is below yours (an admin may remove members, not admins or
 *   the creator).
 * - `own`: only resources you created.
 * - `none`: not allowed.
 */
export type Grant = 'all' | 'lower' | 'own' | 'none';

export const TEAM_ACTIONS = [
  'member.view',
  'member.invite',
  'invite.revoke',
  'member.change_role',
  'member.remove',
  'team.rename',
  'team.dissolve',
  'team.transfer',
  'team.audit',
  'billing.view',
  'billing.recharge',
  'billing.records',
  'billing.settings',
  'model_key.manage',
  'workflow.create',
  'workflow.edit',
  'workflow.delete',
  'workflow.publish',
  'workflow.lock',
  'workflow.run',
  'knowledge.create',
  'knowledge.edit',
  'knowledge.delete',
  'media.create',
  'media.edit',
  'media.delete',
  'agent.create',
  'agent.edit',
  'agent.delete',
  'chat.view',
  'chat.reply',
  'chat.configure',
  'profile.view',
  'profile.edit',
  'profile.define',
  'profile.activate',
  'mcp.manage',
] as const;
export type TeamAction = (typeof TEAM_ACTIONS)[number];

const everyone = { creator: 'all', admin: 'all', member: 'all' } as const;
const authority = { creator: 'all', admin: 'all', member: 'none' } as const;
const creatorOnly = { creator: 'all', admin: 'none', member: 'none' } as const;
const resource = { creator: 'all', admin: 'all', member: 'own' } as const;

export const PERMISSIONS: Record<TeamAction, Record<RoleName, Grant>> = {
  'member.view': everyone,
  'member.invite': authority,
  'invite.revoke': authority,
  'member.change_role': creatorOnly,
  'member.remove': { creator: 'all', admin: 'lower', member: 'none' },
  'team.rename': authority,
  'team.dissolve': creatorOnly,
  'team.transfer': creatorOnly,
  'team.audit': authority,
  'billing.view': everyone,
  'billing.recharge': authority,
  /** Every member's fees and the recharge orders; a member sees the fees of their own calls. */
  'billing.records': authority,
  'billing.settings': authority,
  'model_key.manage': authority,
  'workflow.create': everyone,
  'workflow.edit': resource,
  'workflow.delete': resource,
  'workflow.publish': resource,
  /** The workflow's creator, or the team's creator and admins; the lock binds them too until unlocked. */
  'workflow.lock': resource,
  'workflow.run': everyone,
  'knowledge.create': everyone,
  'knowledge.edit': resource,
  'knowledge.delete': resource,
  'media.create': everyone,
  'media.edit': resource,
  'media.delete': resource,
  'agent.create': everyone,
  'agent.edit': resource,
  'agent.delete': resource,
  'chat.view': everyone,
  'chat.reply': everyone,
  /** A scene's channel credentials and ingest secret: the team's authority only. */
  'chat.configure': authority,
  /** Customers' profiles: every member reads them and edits values; the fields are the authority's. */
  'profile.view': everyone,
  'profile.edit': everyone,
  'profile.define': authority,
  /** Activation events send messages to many customers in the team's name: the authority's. */
  'profile.activate': authority,
  /** The team's MCP server: turning it on, its access tokens and exposed tools (docs/mcp.md). */
  'mcp.manage': authority,
};

const NAME_OF: Record<Role, RoleName> = { 1: 'creator', 2: 'admin', 3: 'member' };

export function grantOf(role: Role, action: TeamAction): Grant {
  return PERMISSIONS[action][NAME_OF[role]];
}

/**
 * Whether `role` may do `action`. Pass `targetRole` for actions on a person and `isOwner` for
 * actions on a resource; without them only an unconditional grant counts.
 */
export function can(role: Role, action: TeamAction, target: { targetRole?: Role; isOwner?: boolean } = {}) {
  const grant = grantOf(role, action);
  if (grant === 'all') return true;
  if (grant === 'lower') return target.targetRole !== undefined && target.targetRole > role;
  if (grant === 'own') return target.isOwner === true;
  return false;
}

/** Actions available at all (possibly limited to own resources or lower roles), for the UI. */
export const actionsFor = (role: Role) => TEAM_ACTIONS.filter((action) => grantOf(role, action) !== 'none');
