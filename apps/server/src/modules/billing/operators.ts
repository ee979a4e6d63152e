import { eq } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth-guard.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { users } from '../auth/auth.schema.ts';

/**
 * The platform's operators: the accounts whose phone is in OPERATOR_PHONES. They manage the
 * model catalogue and refund or adjust any team's balance; to everyone else those calls are
 * FORBIDDEN.
 */
export function createOperatorCheck(db: Db, phones: ReadonlySet<string>) {
  async function isOperator(userId: string) {
    if (phones.size === 0) return false;
    const [user] = await db.select({ phone: users.phone }).from(users).where(eq(users.id, userId));
    return Boolean(user?.phone && phones.has(user.phone));
  }
  return {
    isOperator,
    async require(ctx: AuthContext) {
      if (!(await isOperator(ctx.userId))) throw new AppError('FORBIDDEN');
    },
  };
}

export type OperatorCheck = ReturnType<typeof createOperatorCheck>;
