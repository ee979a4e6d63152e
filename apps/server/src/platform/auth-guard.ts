import type { Role } from '@athena/contract';
import { roleAtLeast } from '@athena/contract';
import type { FastifyRequest } from 'fastify';
import { AppError } from './http/app-error.ts';
import type { RequestContext } from './http/route.ts';

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

/** The current space (from the header) with at least `required` authority, or an error. */
export function requireSpaceRole(ctx: AuthContext, required: Role) {
  if (!ctx.space) throw new AppError('SPACE_UNAVAILABLE');
  if (!roleAtLeast(ctx.space.role, required)) throw new AppError('FORBIDDEN');
  return ctx.space;
}
