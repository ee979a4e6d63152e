import { z } from 'zod';
import { defineRoute, emptyBody } from './envelope.ts';
import { TEAM_ACTIONS } from './permissions.ts';
import { roleSchema, spaceSummary } from './space.ts';
import { text } from './text.ts';

const tag = 'team';
export const TEAM_NAME_MAX_LENGTH = 50;

/** Team name: trimmed, required, at most 50 characters (requirements.md, Validation: cannot be empty). */
export const teamNameField = text({ error: 'TEAM_NAME_REQUIRED' })
  .trim()
  .min(1, { error: 'TEAM_NAME_REQUIRED' })
  .max(TEAM_NAME_MAX_LENGTH, { error: 'TEAM_NAME_TOO_LONG' });

const userRef = z.object({ id: text(), nickname: text(), avatar_url: text().nullable() });

export const memberSchema = z.object({
  user_id: text(),
  nickname: text(),
  avatar_url: text().nullable(),
  phone_masked: text().nullable(),
  role: roleSchema,
  joined_at: text(),
  is_me: z.boolean(),
});
export type Member = z.infer<typeof memberSchema>;

export const INVITE_EXPIRY = { '1d': 86_400, '7d': 7 * 86_400, never: null } as const;
export type InviteExpiry = keyof typeof INVITE_EXPIRY;
export const inviteStatus = z.enum(['active', 'expired', 'revoked', 'exhausted']);
export type InviteStatus = z.infer<typeof inviteStatus>;

export const inviteSchema = z.object({
  id: text(),
  code: text(),
  /** Absolute link to /invite/{code}. */
  url: text(),
  created_by: userRef,
  created_at: text(),
  expires_at: text().nullable(),
  /** null: unlimited. */
  max_uses: z.number().int().nullable(),
  use_count: z.number().int(),
  status: inviteStatus,
});
export type Invite = z.infer<typeof inviteSchema>;

export const AUDIT_ACTIONS = [
  'team.create',
  'team.rename',
  'team.dissolve',
  'invite.create',
  'invite.revoke',
  'member.join',
  'member.role_change',
  'member.remove',
  'member.leave',
  'team.transfer',
  'workflow.create',
  'workflow.delete',
  'workflow.publish',
  'workflow.lock',
  'workflow.unlock',
  'workflow.effective',
  'billing.recharge',
  'billing.refund',
  'billing.adjust',
  'billing.settings',
  'mcp.server',
  'mcp.token_create',
  'mcp.token_revoke',
  'mcp.tool_add',
  'mcp.tool_remove',
  'mcp.external_add',
  'mcp.external_update',
  'mcp.external_remove',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const auditEntrySchema = z.object({
  id: z.number().int(),
  action: z.enum(AUDIT_ACTIONS),
  actor: userRef,
  target: userRef.nullable(),
  /** e.g. { from: 3, to: 2 } for a role change, { name } for a rename. */
  details: z.record(text(), z.union([text(), z.number(), z.boolean(), z.null()])),
  created_at: text(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

const page = { page: z.number().int().min(1).default(1), page_size: z.number().int().min(1).max(100).default(20) };
const userId = text().min(1).max(64);

/** Team calls act on the current space: the `space-id` header. */
export const teamRoutes = {
  create: defineRoute({
    path: '/api/athena/v1/team/create',
    body: z.object({ name: teamNameField }),
    data: spaceSummary,
    auth: true,
    summary: 'Create a team (a space with its own balance); you become its creator',
    tag,
  }),
  update: defineRoute({
    path: '/api/athena/v1/team/update',
    body: z.object({ name: teamNameField }),
    data: spaceSummary,
    auth: true,
    summary: 'Rename the current team',
    tag,
  }),
  dissolve: defineRoute({
    path: '/api/athena/v1/team/dissolve',
    body: z.object({
      /** The team's name, typed again. */
      confirm_name: text().max(100),
      /** Required when the balance is above zero: the creator gives it up. */
      forfeit_balance: z.boolean().default(false),
    }),
    data: z.null(),
    auth: true,
    summary: 'Dissolve the current team (creator only)',
    tag,
  }),
  permissions: defineRoute({
    path: '/api/athena/v1/team/permissions',
    body: emptyBody,
    data: z.object({ role: roleSchema, actions: z.array(z.enum(TEAM_ACTIONS)) }),
    auth: true,
    summary: 'What I may do in the current team',
    tag,
  }),
  memberList: defineRoute({
    path: '/api/athena/v1/team/member/list',
    body: z.object({ keyword: text().trim().max(50).optional(), ...page }),
    data: z.object({ items: z.array(memberSchema), total: z.number().int() }),
    auth: true,
    summary: 'Members of the current team (search by nickname or phone)',
    tag,
  }),
  memberUpdateRole: defineRoute({
    path: '/api/athena/v1/team/member/update_role',
    body: z.object({ user_id: userId, role: z.union([z.literal(2), z.literal(3)]) }),
    data: memberSchema,
    auth: true,
    summary: 'Make a member an admin or an admin a member',
    tag,
  }),
  memberRemove: defineRoute({
    path: '/api/athena/v1/team/member/remove',
    body: z.object({ user_id: userId }),
    data: z.null(),
    auth: true,
    summary: 'Remove someone from the team; what they created stays',
    tag,
  }),
  memberLeave: defineRoute({
    path: '/api/athena/v1/team/member/leave',
    body: emptyBody,
    data: z.null(),
    auth: true,
    summary: 'Leave the current team',
    tag,
  }),
  transfer: defineRoute({
    path: '/api/athena/v1/team/transfer',
    body: z.object({ user_id: userId }),
    data: z.null(),
    auth: true,
    summary: 'Make another member the creator; you become an admin',
    tag,
  }),
  inviteCreate: defineRoute({
    path: '/api/athena/v1/team/invite/create',
    body: z.object({
      expires_in: z.enum(['1d', '7d', 'never']).default('7d'),
      max_uses: z.enum(['once', 'unlimited']).default('unlimited'),
    }),
    data: inviteSchema,
    auth: true,
    summary: 'Create an invite link',
    tag,
  }),
  inviteList: defineRoute({
    path: '/api/athena/v1/team/invite/list',
    body: emptyBody,
    data: z.object({ items: z.array(inviteSchema) }),
    auth: true,
    summary: 'Invite links of the current team, newest first',
    tag,
  }),
  inviteRevoke: defineRoute({
    path: '/api/athena/v1/team/invite/revoke',
    body: z.object({ id: text().min(1).max(64) }),
    data: z.null(),
    auth: true,
    summary: 'Revoke an invite link',
    tag,
  }),
  auditList: defineRoute({
    path: '/api/athena/v1/team/audit/list',
    body: z.object({
      action: z.enum(AUDIT_ACTIONS).optional(),
      from: z.iso.datetime({ offset: true }).optional(),
      to: z.iso.datetime({ offset: true }).optional(),
      ...page,
    }),
    data: z.object({ items: z.array(auditEntrySchema), total: z.number().int() }),
    auth: true,
    summary: 'Team audit log (creator and admins)',
    tag,
  }),
} as const;

export const invitePreview = z.object({
  team_name: text(),
  member_count: z.number().int(),
  inviter: z.object({ nickname: text(), avatar_url: text().nullable() }),
  status: inviteStatus,
  /** null when the caller is not signed in. */
  already_member: z.boolean().nullable(),
});

/** Invite calls work from the link alone, without a current space. */
export const inviteRoutes = {
  get: defineRoute({
    path: '/api/athena/v1/invite/get',
    body: z.object({ code: text().min(1).max(64) }),
    data: invitePreview,
    auth: false,
    summary: 'Which team invites you and who sent the link (works signed out)',
    tag,
  }),
  accept: defineRoute({
    path: '/api/athena/v1/invite/accept',
    body: z.object({ code: text().min(1).max(64) }),
    data: z.object({ space: spaceSummary, already_member: z.boolean() }),
    auth: true,
    summary: 'Join the team; joining twice changes nothing',
    tag,
  }),
} as const;
