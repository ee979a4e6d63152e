import { randomInt, timingSafeEqual } from 'node:crypto';
import { SMS_CODE_TTL_SECONDS, SMS_COOLDOWN_SECONDS } from '@athena/contract';
import { and, count, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { hmac } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import type { SmsProvider } from '../../platform/sms/sms-provider.ts';
import { smsCodes } from './auth.schema.ts';

export const MAX_CODE_ATTEMPTS = 5;
const DAY_MS = 86_400_000;

export type SmsPurpose = 'login' | 'change_phone';
export type SmsCodeService = ReturnType<typeof createSmsCodeService>;

export interface SmsCodeDeps {
  db: Db;
  provider: SmsProvider;
  secret: Buffer;
  /** Designated numbers with fixed codes (SMS_TEST_NUMBERS): nothing is sent, no limits apply. */
  testNumbers: Map<string, string>;
  dailyLimitPerPhone: number;
  dailyLimitPerIp: number;
  now: () => Date;
  log: FastifyBaseLogger;
}

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export function createSmsCodeService(deps: SmsCodeDeps) {
  const { db, now } = deps;
  const hashOf = (phone: string, purpose: SmsPurpose, code: string) => hmac(deps.secret, `${purpose}:${phone}:${code}`);

  async function enforceLimits(phone: string, ip: string, at: Date) {
    const [latest] = await db
      .select({ createdAt: smsCodes.createdAt })
      .from(smsCodes)
      .where(eq(smsCodes.phone, phone))
      .orderBy(desc(smsCodes.createdAt))
      .limit(1);
    const waitMs = latest ? latest.createdAt.getTime() + SMS_COOLDOWN_SECONDS * 1000 - at.getTime() : 0;
    if (waitMs > 0) throw new AppError('SMS_COOLDOWN', { seconds: Math.ceil(waitMs / 1000) });

    const since = new Date(at.getTime() - DAY_MS);
    const [byPhone] = await db
      .select({ n: count() })
      .from(smsCodes)
      .where(and(eq(smsCodes.phone, phone), gt(smsCodes.createdAt, since)));
    if (byPhone.n >= deps.dailyLimitPerPhone) throw new AppError('SMS_PHONE_DAILY_LIMIT');
    const [byIp] = await db
      .select({ n: count() })
      .from(smsCodes)
      .where(and(eq(smsCodes.ip, ip), gt(smsCodes.createdAt, since)));
    if (byIp.n >= deps.dailyLimitPerIp) throw new AppError('SMS_IP_DAILY_LIMIT');
  }

  return {
    async send(phone: string, purpose: SmsPurpose, ip: string) {
      if (deps.testNumbers.has(phone)) {
        deps.log.info({ phone }, 'SMS test number: fixed code, nothing sent');
        return;
      }
      const at = now();
      await enforceLimits(phone, ip, at);
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const [row] = await db.transaction(async (tx) => {
        // A new code replaces any earlier one still open for this phone.
        await tx
          .update(smsCodes)
          .set({ consumedAt: at })
          .where(and(eq(smsCodes.phone, phone), eq(smsCodes.purpose, purpose), isNull(smsCodes.consumedAt)));
        return tx
          .insert(smsCodes)
          .values({
            phone,
            purpose,
            ip,
            codeHash: hashOf(phone, purpose, code),
            createdAt: at,
            expiresAt: new Date(at.getTime() + SMS_CODE_TTL_SECONDS * 1000),
          })
          .returning({ id: smsCodes.id });
      });
      try {
        await deps.provider.sendCode(phone, code);
      } catch (error) {
        // Not sent, so it must not count against the person's cooldown or caps.
        await db.delete(smsCodes).where(eq(smsCodes.id, row.id));
        deps.log.warn({ err: error, phone }, 'SMS provider failed');
        throw new AppError('SMS_SEND_FAILED');
      }
    },

    /** Checks and consumes a code; wrong guesses count, and the fifth burns the code. */
    async consume(phone: string, purpose: SmsPurpose, code: string) {
      const fixed = deps.testNumbers.get(phone);
      if (fixed !== undefined) {
        if (code !== fixed) throw new AppError('CODE_INVALID');
        return;
      }
      const at = now();
      const [row] = await db
        .select()
        .from(smsCodes)
        .where(and(eq(smsCodes.phone, phone), eq(smsCodes.purpose, purpose), isNull(smsCodes.consumedAt)))
        .orderBy(desc(smsCodes.createdAt))
        .limit(1);
      if (!row || row.expiresAt <= at) throw new AppError('CODE_EXPIRED');

      if (!sameHash(row.codeHash, hashOf(phone, purpose, code))) {
        // Incremented in SQL so parallel wrong guesses cannot share one attempt.
        const [counted] = await db
          .update(smsCodes)
          .set({ attempts: sql`${smsCodes.attempts} + 1` })
          .where(eq(smsCodes.id, row.id))
          .returning({ attempts: smsCodes.attempts });
        if (counted.attempts < MAX_CODE_ATTEMPTS) throw new AppError('CODE_INVALID');
        await db.update(smsCodes).set({ consumedAt: at }).where(eq(smsCodes.id, row.id));
        throw new AppError('CODE_ATTEMPTS_EXCEEDED');
      }
      // The conditional update makes the code single-use even under concurrent requests.
      const used = await db
        .update(smsCodes)
        .set({ consumedAt: at })
        .where(and(eq(smsCodes.id, row.id), isNull(smsCodes.consumedAt)))
        .returning({ id: smsCodes.id });
      if (used.length === 0) throw new AppError('CODE_EXPIRED');
    },

    /** Codes are kept two days so the daily caps can count them. */
    async purge() {
      const removed = await db
        .delete(smsCodes)
        .where(lt(smsCodes.createdAt, new Date(now().getTime() - 2 * DAY_MS)))
        .returning({ id: smsCodes.id });
      return removed.length;
    },
  };
}
