import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNotNull, isNull, lt } from 'drizzle-orm';
import { newToken, sha256 } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/app-error.ts';
import type { WechatProvider, WechatScan } from '../../platform/wechat/wechat-provider.ts';
import { phoneBindings, wechatLogins } from './auth.schema.ts';

/** How long a bind-phone token stays usable after the scan. */
export const BIND_TOKEN_TTL_SECONDS = 600;
const DAY_MS = 86_400_000;

export type WechatLoginService = ReturnType<typeof createWechatLoginService>;
export type ScannedProfile = Omit<WechatScan, 'sceneStr'>;
/** What a QR code is for: signing in, or linking WeChat to the signed-in account `userId`. */
export type QrPurpose = { purpose: 'login' } | { purpose: 'bind'; userId: string };

export function createWechatLoginService(deps: {
  db: Db;
  provider: WechatProvider;
  qrTtlSeconds: number;
  now: () => Date;
}) {
  const { db, now } = deps;

  async function find(code: string) {
    const [row] = await db.select().from(wechatLogins).where(eq(wechatLogins.code, code)).limit(1);
    return row;
  }

  return {
    /** A sign-in QR, or with `bind` one that links the scanning WeChat user to that account. */
    async createQr(purpose: QrPurpose = { purpose: 'login' }) {
      const code = randomBytes(16).toString('hex');
      const { url } = await deps.provider.createQr(code, deps.qrTtlSeconds).catch(() => {
        throw new AppError('WECHAT_UNAVAILABLE');
      });
      const at = now();
      await db.insert(wechatLogins).values({
        code,
        purpose: purpose.purpose,
        bindUserId: purpose.purpose === 'bind' ? purpose.userId : null,
        createdAt: at,
        expiresAt: new Date(at.getTime() + deps.qrTtlSeconds * 1000),
      });
      return { url, code, expires_in: deps.qrTtlSeconds };
    },

    /** True once scanned; an expired or unknown code says so, so the page can refresh the QR. */
    async isScanned(code: string) {
      const row = await find(code);
      if (!row) throw new AppError('WECHAT_QR_EXPIRED');
      if (row.consumedAt) throw new AppError('WECHAT_CODE_USED');
      // An expired code cannot be exchanged any more, scanned or not: say so, so the page refreshes.
      if (row.expiresAt <= now()) throw new AppError('WECHAT_QR_EXPIRED');
      return Boolean(row.scannedAt);
    },

    /** Called by the provider's callback (or the dev scan page). Ignores unknown or expired codes. */
    async recordScan(scan: WechatScan) {
      const at = now();
      const updated = await db
        .update(wechatLogins)
        .set({
          scannedAt: at,
          openid: scan.openid,
          unionid: scan.unionid,
          nickname: scan.nickname,
          avatarUrl: scan.avatarUrl,
        })
        .where(
          and(eq(wechatLogins.code, scan.sceneStr), isNull(wechatLogins.scannedAt), gt(wechatLogins.expiresAt, at)),
        )
        .returning({ code: wechatLogins.code });
      return updated.length > 0;
    },

    /**
     * Exchanges a scanned code exactly once for the WeChat profile behind it. The code must have
     * been made for `expected`: a bind code never signs anyone in, and a bind code is only good
     * for the account that asked for it. A code for something else looks unknown and stays unused.
     */
    async exchange(code: string, expected: QrPurpose = { purpose: 'login' }): Promise<ScannedProfile> {
      const at = now();
      const meant =
        expected.purpose === 'bind'
          ? and(eq(wechatLogins.purpose, 'bind'), eq(wechatLogins.bindUserId, expected.userId))
          : eq(wechatLogins.purpose, 'login');
      // A scanned code stays exchangeable until its QR expiry; afterwards it must be scanned anew.
      const [row] = await db
        .update(wechatLogins)
        .set({ consumedAt: at })
        .where(
          and(
            eq(wechatLogins.code, code),
            meant,
            isNotNull(wechatLogins.scannedAt),
            isNull(wechatLogins.consumedAt),
            gt(wechatLogins.expiresAt, at),
          ),
        )
        .returning();
      if (!row) {
        const existing = await find(code);
        const mismatch =
          existing &&
          (existing.purpose !== expected.purpose ||
            (expected.purpose === 'bind' && existing.bindUserId !== expected.userId));
        if (!existing || mismatch || existing.expiresAt <= at) throw new AppError('WECHAT_QR_EXPIRED');
        if (existing.consumedAt) throw new AppError('WECHAT_CODE_USED');
        throw new AppError('WECHAT_NOT_SCANNED');
      }
      return {
        openid: row.openid!,
        unionid: row.unionid ?? undefined,
        nickname: row.nickname ?? undefined,
        avatarUrl: row.avatarUrl ?? undefined,
      };
    },

    async issueBindToken(profile: ScannedProfile) {
      const token = newToken();
      const at = now();
      await db.insert(phoneBindings).values({
        tokenHash: sha256(token),
        openid: profile.openid,
        unionid: profile.unionid,
        nickname: profile.nickname,
        avatarUrl: profile.avatarUrl,
        createdAt: at,
        expiresAt: new Date(at.getTime() + BIND_TOKEN_TTL_SECONDS * 1000),
      });
      return token;
    },

    /** Looks up a bind token without using it up, so a wrong SMS code can be retried. */
    async peekBindToken(token: string) {
      const [row] = await db
        .select()
        .from(phoneBindings)
        .where(
          and(
            eq(phoneBindings.tokenHash, sha256(token)),
            isNull(phoneBindings.consumedAt),
            gt(phoneBindings.expiresAt, now()),
          ),
        )
        .limit(1);
      if (!row) throw new AppError('BIND_TOKEN_INVALID');
      return row;
    },

    async consumeBindToken(token: string) {
      const used = await db
        .update(phoneBindings)
        .set({ consumedAt: now() })
        .where(and(eq(phoneBindings.tokenHash, sha256(token)), isNull(phoneBindings.consumedAt)))
        .returning({ openid: phoneBindings.openid });
      if (used.length === 0) throw new AppError('BIND_TOKEN_INVALID');
    },

    async purge() {
      const cutoff = new Date(now().getTime() - DAY_MS);
      const qr = await db
        .delete(wechatLogins)
        .where(lt(wechatLogins.expiresAt, cutoff))
        .returning({ c: wechatLogins.code });
      const bind = await db
        .delete(phoneBindings)
        .where(lt(phoneBindings.expiresAt, cutoff))
        .returning({ c: phoneBindings.tokenHash });
      return qr.length + bind.length;
    },
  };
}
