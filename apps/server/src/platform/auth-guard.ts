import { can, grantOf, type Role, type TeamAction } from '@athena/contract';
import type { FastifyRequest } from 'fastify';
import { AppError } from './http/app-error.ts';
import type { RequestContext } from './http/request-context.ts';

export interface AuthContext extends RequestContext {
  userId: string;
  sessionId: string;
  /** The space named by the `space-id` header, membership already checked; null when absent. */
  space: { id: string; role: Role } | null;
}

/** What the guard needs from the auth and space modules; wired in buildApp. */
export interface Authenticator {
  resolveSession(token: string): Promise<{ sessionId: string; userId: string } | null>;
  roleIn(spaceId: string, userId: string): Promise<Role | null>;
}

declare module 'fastify' {
  interface FastifyInstance {
    authenticator: Authenticator;
  }
}

const headerValue = (value: string | string[] | undefined) => (typeof value === 'string' ? value.trim() : '');

export async function authenticate(request: FastifyRequest, ctx: RequestContext): Promise<AuthContext> {
  const token = headerValue(request.headers.token);
  const session = token ? await request.server.authenticator.resolveSession(token) : null;
  if (!session) throw new AppError('LOGIN_EXPIRED');

  const spaceId = headerValue(request.headers['space-id']);
  let space: AuthContext['space'] = null;
  if (spaceId) {
    const role = await request.server.authenticator.roleIn(spaceId, session.userId);
    if (!role) throw new AppError('SPACE_UNAVAILABLE');
    space = { id: spaceId, role };
  }
  return { ...ctx, userId: session.userId, sessionId: session.sessionId, space };
}

/**
 * The permission check every team-scoped service starts with (the table is PERMISSIONS in the
 * contract). Pass the target's role for actions on a person and ownership for actions on a
 * resource. A `lower` grant that does not cover the target answers CANNOT_MANAGE_MEMBER, anything
 * else FORBIDDEN.
 */
export function authorize(ctx: AuthContext, action: TeamAction, target: { targetRole?: Role; isOwner?: boolean } = {}) {
  if (!ctx.space) throw new AppError('SPACE_UNAVAILABLE');
  if (can(ctx.space.role, action, target)) return ctx.space;
  throw new AppError(grantOf(ctx.space.role, action) === 'lower' ? 'CANNOT_MANAGE_MEMBER' : 'FORBIDDEN');
}
