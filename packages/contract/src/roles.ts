/** Team roles (requirements.md, Roles). Lower number = more authority. */
export const ROLE = { creator: 1, admin: 2, member: 3 } as const;
export type Role = (typeof ROLE)[keyof typeof ROLE];
export type RoleName = keyof typeof ROLE;

export const ROLE_NAMES: Record<Role, RoleName> = { 1: 'creator', 2: 'admin', 3: 'member' };

/** "Team authority" is creator or admin. */
export const hasTeamAuthority = (role: Role) => role <= ROLE.admin;
