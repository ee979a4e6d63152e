import { createHash } from 'node:crypto';
import { maskPhone, type Settings } from '@athena/contract';
import { AppError } from '../../platform/http/app-error.ts';
import { extensionFor, fileUrl, type ObjectStorage } from '../../platform/storage.ts';
import { settingsOf } from '../auth/index.ts';
import type { SessionService } from '../auth/session.service.ts';
import type { SmsCodeService } from '../auth/sms-code.service.ts';
import type { SettingsPatch, UserRepo } from '../auth/user.repo.ts';
import type { WechatLoginService } from '../auth/wechat-login.service.ts';
import type { SpaceRepo } from '../space/space.repo.ts';
import type { AvatarType } from './avatar.ts';

export type AccountService = ReturnType<typeof createAccountService>;

/** IANA zone names are at most ~32 characters; the cap only keeps junk out of the row. */
const TIMEZONE_MAX_LENGTH = 64;

/** The canonical spelling of an IANA zone Intl knows (e.g. asia/shanghai → Asia/Shanghai), or null. */
export function canonicalTimezone(value: string): string | null {
  if (!value || value.length > TIMEZONE_MAX_LENGTH) return null;
  try {
    const zone = new Intl.DateTimeFormat('en', { timeZone: value }).resolvedOptions().timeZone;
    // Node 22 and later also take a UTC offset ('+08:00') as a zone; Node 20 and older browsers
    // refuse it, and an offset knows no daylight saving. Only zone names are kept.
    return /^[+-]/.test(zone) ? null : zone;
  } catch {
    return null;
  }
}

/**
 * Everything a signed-in person changes about their own account. Every method acts on the caller
 * (`userId` comes from the session, never from the body), and every write publishes `user:<id>`
 * through the repo so cached copies everywhere drop at once.
 */
export function createAccountService(deps: {
  accounts: UserRepo;
  sessions: SessionService;
  smsCodes: SmsCodeService;
  wechat: WechatLoginService;
  spaceRepo: SpaceRepo;
  storage: ObjectStorage;
}) {
  const { accounts, sessions, smsCodes, wechat, spaceRepo, storage } = deps;

  async function me(userId: string) {
    const user = await accounts.findById(userId);
    if (!user) throw new AppError('LOGIN_EXPIRED');
    return user;
  }

  return {
    async updateNickname(userId: string, nickname: string) {
      await me(userId);
      await accounts.setNickname(userId, nickname);
    },

    /** `bytes` were already checked by content; the key is ours, named by the content's hash. */
    async setAvatar(userId: string, bytes: Buffer, type: AvatarType) {
      await me(userId);
      const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 32);
      const key = `avatars/${userId}/${hash}.${extensionFor(type)}`;
      await storage.put(key, bytes, type);
      const url = fileUrl(key);
      await accounts.setAvatarUrl(userId, url);
      return { avatar_url: url };
    },

    /**
     * The code proves the person holds the new phone; it is checked before we say whether the
     * number is taken, so this call cannot be used to find out who is registered.
     */
    async changePhone(userId: string, phone: string, code: string) {
      const user = await me(userId);
      if (user.phone === phone) throw new AppError('PHONE_UNCHANGED');
      await smsCodes.consume(phone, 'change_phone', code);
      const owner = await accounts.findByPhone(phone);
      if (owner && owner.id !== userId) throw new AppError('PHONE_TAKEN');
      if ((await accounts.changePhone(userId, phone)) === 'taken') throw new AppError('PHONE_TAKEN');
      return { phone_masked: maskPhone(phone) };
    },

    async wechatBindQr(userId: string) {
      await me(userId);
      return wechat.createQr({ purpose: 'bind', userId });
    },

    /** Links the WeChat user who scanned my bind QR. Binding again replaces the earlier link. */
    async wechatBind(userId: string, code: string) {
      await me(userId);
      const profile = await wechat.exchange(code, { purpose: 'bind', userId });
      const owner = await accounts.findByOpenid(profile.openid);
      if (owner && owner.id !== userId) throw new AppError('WECHAT_TAKEN');
      if (owner) return;
      if ((await accounts.linkWechat(userId, profile.openid, profile.unionid)) === 'taken') {
        throw new AppError('WECHAT_TAKEN');
      }
    },

    /** Never leaves an account without a way to sign in: only while a phone remains. */
    async wechatUnbind(userId: string) {
      const user = await me(userId);
      if (!user.wechatOpenid) return;
      if (!(await accounts.unlinkWechat(userId))) throw new AppError('LAST_SIGN_IN_METHOD');
    },

    async listSessions(userId: string, currentId: string) {
      const rows = await sessions.listForUser(userId);
      return {
        items: rows.map((row) => ({
          id: row.id,
          current: row.id === currentId,
          user_agent: row.userAgent,
          ip: row.ip,
          created_at: row.createdAt.toISOString(),
          last_seen_at: row.lastSeenAt.toISOString(),
        })),
      };
    },

    /** Someone else's session id answers exactly like an unknown one. */
    async revokeSession(userId: string, sessionId: string) {
      if (!(await sessions.revokeOwn(userId, sessionId))) throw new AppError('NOT_FOUND');
    },

    async revokeOtherSessions(userId: string, currentId: string) {
      return { revoked: await sessions.revokeOthers(userId, currentId) };
    },

    async getSettings(userId: string): Promise<Settings> {
      return settingsOf(await me(userId));
    },

    /** Fields left out stay as they are; null resets one to "the device decides". */
    async updateSettings(userId: string, body: Partial<Settings>): Promise<Settings> {
      const user = await me(userId);
      const patch: SettingsPatch = {};
      if (body.language !== undefined) patch.language = body.language;
      if (body.theme !== undefined) patch.theme = body.theme;
      if (body.timezone !== undefined) {
        const zone = body.timezone === null ? null : canonicalTimezone(body.timezone.trim());
        if (body.timezone !== null && !zone) throw new AppError('TIMEZONE_INVALID');
        patch.timezone = zone;
      }
      if (body.default_space_id !== undefined) {
        const spaceId = body.default_space_id;
        if (spaceId !== null && !(await spaceRepo.getForUser(spaceId, userId))) {
          throw new AppError('SPACE_UNAVAILABLE');
        }
        patch.defaultSpaceId = spaceId;
      }
      if (Object.keys(patch).length === 0) return settingsOf(user);
      const updated = await accounts.updateSettings(userId, patch);
      if (!updated) throw new AppError('LOGIN_EXPIRED');
      return settingsOf(updated);
    },
  };
}
