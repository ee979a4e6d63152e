import { createHash } from 'node:crypto';
import type { Language } from '@athena/contract';
import { AppError } from '../../platform/http/app-error.ts';
import type { SessionService } from './session.service.ts';
import type { SmsCodeService } from './sms-code.service.ts';
import type { UserRepo, UserRow } from './user.repo.ts';
import type { ScannedProfile, WechatLoginService } from './wechat-login.service.ts';

export interface ClientMeta {
  ip: string;
  userAgent?: string;
  language: Language;
}

export type SignInService = ReturnType<typeof createSignInService>;

const DEFAULT_NAMES: Record<Language, { user: (tail: string) => string; space: (nickname: string) => string }> = {
  'zh-CN': { user: (tail) => `用户${tail}`, space: (n) => `${n}的空间` },
  'zh-TW': { user: (tail) => `用戶${tail}`, space: (n) => `${n}的空間` },
  en: { user: (tail) => `User ${tail}`, space: (n) => `${n}'s space` },
};

/** Letters and digits no one mistakes for another (no 0/O, 1/I/L). */
const TAIL_LETTERS = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/**
 * The default nickname's tail: the phone's last four digits, which the person recognises, and two
 * characters derived from the whole number, so two people whose numbers end alike (two new members
 * of one team, an inviter and the one they invite) are not both 用户0000.
 */
export function nameTail(phone: string) {
  const digest = createHash('sha256').update(phone).digest();
  return `${phone.slice(-4)}${TAIL_LETTERS[digest[0] % TAIL_LETTERS.length]}${TAIL_LETTERS[digest[1] % TAIL_LETTERS.length]}`;
}

/** Turns a verified phone or WeChat scan into a session, creating the account on first sign-in. */
export function createSignInService(deps: {
  accounts: UserRepo;
  sessions: SessionService;
  smsCodes: SmsCodeService;
  wechat: WechatLoginService;
}) {
  const { accounts, sessions, smsCodes, wechat } = deps;

  const startSession = (user: UserRow, meta: ClientMeta) =>
    sessions.create(user.id, { ip: meta.ip, userAgent: meta.userAgent });

  function newAccountNames(meta: ClientMeta, nickname: string | undefined, phone: string) {
    const names = DEFAULT_NAMES[meta.language];
    const chosen = (nickname?.trim() || names.user(nameTail(phone))).slice(0, 30);
    return { nickname: chosen, personalSpaceName: names.space(chosen) };
  }

  return {
    async bySms(phone: string, code: string, meta: ClientMeta) {
      await smsCodes.consume(phone, 'login', code);
      const user =
        (await accounts.findByPhone(phone)) ??
        (await accounts.create({ phone, ...newAccountNames(meta, undefined, phone) }));
      return { login_token: await startSession(user, meta) };
    },

    async byWechatCode(code: string, meta: ClientMeta) {
      const profile = await wechat.exchange(code);
      const user = await accounts.findByOpenid(profile.openid);
      if (user?.phone) return { need_bind_phone: false, login_token: await startSession(user, meta) };
      return { need_bind_phone: true, login_token: await wechat.issueBindToken(profile) };
    },

    async bindPhone(phone: string, code: string, bindToken: string, meta: ClientMeta) {
      const binding = await wechat.peekBindToken(bindToken);
      await smsCodes.consume(phone, 'login', code);

      const owner = await accounts.findByPhone(phone);
      if (owner && owner.wechatOpenid !== binding.openid) throw new AppError('PHONE_TAKEN');
      await wechat.consumeBindToken(bindToken);

      const profile: ScannedProfile = {
        openid: binding.openid,
        unionid: binding.unionid ?? undefined,
        nickname: binding.nickname ?? undefined,
        avatarUrl: binding.avatarUrl ?? undefined,
      };
      let user = owner ?? (await accounts.findByOpenid(profile.openid));
      if (user && !user.phone) await accounts.setPhone(user.id, phone);
      user ??= await accounts.create({
        phone,
        wechatOpenid: profile.openid,
        wechatUnionid: profile.unionid,
        avatarUrl: profile.avatarUrl,
        ...newAccountNames(meta, profile.nickname, phone),
      });
      return { login_token: await startSession(user, meta) };
    },
  };
}
