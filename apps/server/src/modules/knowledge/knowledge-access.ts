import { type AuthContext, authorize } from '../../platform/auth-guard.ts';
import type { BaseRow } from './knowledge.repo.ts';

/** Edits of a base and everything in it (units, segments) follow `knowledge.edit`. */
export const authorizeEdit = (ctx: AuthContext, base: BaseRow) =>
  authorize(ctx, 'knowledge.edit', { isOwner: base.createdBy === ctx.userId });
