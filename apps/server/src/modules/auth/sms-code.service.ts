import { randomInt, timingSafeEqual } from 'node:crypto';
import { SMS_CODE_TTL_SECONDS, SMS_COOLDOWN_SECONDS } from '@athena/contract';
import type { FastifyBaseLogger } from 'fastify';
import { hmac } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import type { Tx } from '../../platform/db/sql.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { addressKey } from '../../platform/rate-limit/address-key.ts';
import type { RateLimits } from '../../platform/rate-limit/rate-limits.ts';
import type { SmsProvider } from '../../platform/sms/sms-provider.ts';
import { createSmsCodeRepo } from './sms-code.repo.ts';

export const MAX_CODE_ATTEMPTS = 5;
const DAY_MS = 86_400_000;
/** Codes one number gets at the plain resend interval within 24 h before its wait starts doubling. */
const SMS_CODES_AT_RESEND_INTERVAL = 4;

export type SmsPurpose = 'login' | 'change_phone';
export type SmsCodeService = ReturnType<typeof createSmsCodeService>;

export interface SmsCodeDeps {
  db: Db;
  provider: SmsProvider;
  secret: Buffer;
  /** Designated numbers with fixed codes (SMS_TEST_NUMBERS): nothing is sent, no limits apply. */
  testNumbers: Map<string, string>;
  /** The longest one number ever waits for its next code (SMS_PHONE_MAX_WAIT_SECONDS). */
  maxWaitSeconds: number;
  dailyLimitPerIp: number;
  rateLimits: RateLimits;
  now: () => Date;
  log: FastifyBaseLogger;
}

/**
 * Seconds a number waits after its latest code, given how many codes it got in the last 24 h: the
 * resend interval for the first few, then twice the previous wait each time, never more than
 * `maxWaitSeconds`. A stranger can slow a number down this way but never shut its owner out,
 * and every code the stranger asks for reaches the owner’s phone (docs/auth.md, SMS caps).
 */
function phoneWaitSeconds(sentIn24h: number, maxWaitSeconds: number) {
  const doublings = Math.max(0, sentIn24h - (SMS_CODES_AT_RESEND_INTERVAL - 1));
  return Math.min(SMS_COOLDOWN_SECONDS * 2 ** doublings, maxWaitSeconds);
}

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export function createSmsCodeService(deps: SmsCodeDeps) {
  const { now } = deps;
  const repo = createSmsCodeRepo(deps.db);
  const hashOf = (phone: string, purpose: SmsPurpose, code: string) => hmac(deps.secret, `${purpose}:${phone}:${code}`);
  const perAddress = { name: 'sms-address', limit: deps.dailyLimitPerIp, windowSeconds: DAY_MS / 1000 };

  async function enforcePhoneWait(tx: Tx, phone: string, at: Date) {
    const recent = await repo.sentSince(tx, phone, new Date(at.getTime() - DAY_MS));
    if (!recent.latest) return;
    const wait = phoneWaitSeconds(recent.sent, deps.maxWaitSeconds);
    const waitMs = recent.latest.getTime() + wait * 1000 - at.getTime();
    if (waitMs <= 0) return;
    const seconds = Math.ceil(waitMs / 1000);
    throw new AppError(wait > SMS_COOLDOWN_SECONDS ? 'SMS_PHONE_THROTTLED' : 'SMS_COOLDOWN', { seconds }, seconds);
  }

  return {
    async send(phone: string, purpose: SmsPurpose, ip: string) {
      if (deps.testNumbers.has(phone)) {
        deps.log.info({ phone }, 'SMS test number: fixed code, nothing sent');
        return;
      }
      const at = now();
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      // A refusal rolls the whole transaction back, so only codes really sent count anywhere.
      const { id, addressHit } = await repo.forPhone(phone, async (tx) => {
        await enforcePhoneWait(tx, phone, at);
        const addressHit = await deps.rateLimits.hit([{ rule: perAddress, subject: addressKey(ip) }], tx);
        if (!addressHit.allowed) throw new AppError('SMS_IP_DAILY_LIMIT', {}, addressHit.retryAfterSeconds);
        const id = await repo.replace(tx, {
          phone,
          purpose,
          ip,
          codeHash: hashOf(phone, purpose, code),
          createdAt: at,
          expiresAt: new Date(at.getTime() + SMS_CODE_TTL_SECONDS * 1000),
        });
        return { id, addressHit };
      });
      try {
        await deps.provider.sendCode(phone, code);
      } catch (error) {
        // Not sent, so it must not count against the number's wait or the address's cap.
        await repo.remove(id);
        await deps.rateLimits.undo(addressHit);
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
      const row = await repo.latestOpen(phone, purpose);
      if (!row || row.expiresAt <= at) throw new AppError('CODE_EXPIRED');

      if (!sameHash(row.codeHash, hashOf(phone, purpose, code))) {
        if ((await repo.countAttempt(row.id)) < MAX_CODE_ATTEMPTS) throw new AppError('CODE_INVALID');
        await repo.close(row.id, at);
        throw new AppError('CODE_ATTEMPTS_EXCEEDED');
      }
      if (!(await repo.close(row.id, at))) throw new AppError('CODE_EXPIRED');
    },

    /** Codes are kept two days so a number's wait can count the last 24 h of them. */
    async purge() {
      return repo.removeOlderThan(new Date(now().getTime() - 2 * DAY_MS));
    },
  };
}
