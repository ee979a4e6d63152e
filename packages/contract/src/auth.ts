import { z } from 'zod';
import { settingsSchema } from './account.ts';
import { defineRoute, emptyBody } from './envelope.ts';
import { spaceSummary } from './space.ts';
import { text } from './text.ts';
import { phoneField, smsCodeField } from './validation.ts';

const tag = 'auth';

export const SMS_COOLDOWN_SECONDS = 15;
export const SMS_CODE_TTL_SECONDS = 300;
export const WECHAT_POLL_INTERVAL_MS = 2000;

export const userInfo = z.object({
  id: text(),
  nickname: text(),
  avatar_url: text().nullable(),
  phone_masked: text().nullable(),
  has_wechat: z.boolean(),
  real_name_verified: z.boolean(),
  settings: settingsSchema,
  created_at: text(),
  /** The space the user works in now; null only if they belong to none. */
  space: spaceSummary.nullable(),
});
export type UserInfo = z.infer<typeof userInfo>;

const loginToken = text().min(1).max(200);

export const authRoutes = {
  getWechatUrl: defineRoute({
    path: '/accountv2/login/get_wechat_url',
    body: emptyBody,
    data: z.object({
      /** QR content: the browser renders it as a QR code. */
      url: text(),
      /** The scene string to poll with. */
      code: text(),
      expires_in: z.number().int(),
    }),
    auth: false,
    summary: 'Create a WeChat sign-in QR code',
    tag,
  }),
  checkWechatUrl: defineRoute({
    path: '/accountv2/login/check_wechat_url',
    body: z.object({ code: text().min(1).max(64) }),
    data: z.boolean(),
    auth: false,
    summary: 'Has the QR code been scanned? Poll every 2 s.',
    tag,
  }),
  byWechatCode: defineRoute({
    path: '/accountv2/login/by_wechat_code',
    body: z.object({ code: text().min(1).max(64) }),
    data: z.object({ need_bind_phone: z.boolean(), login_token: text() }),
    auth: false,
    summary: 'Exchange a scanned QR code for a session (or a bind-phone token)',
    tag,
  }),
  sendSms: defineRoute({
    path: '/accountv2/login/send_sms',
    body: z.object({ phone: phoneField, type: z.enum(['login', 'change_phone']).default('login') }),
    data: z.object({ cooldown_seconds: z.number().int(), expires_in: z.number().int() }),
    auth: false,
    summary: 'Send a sign-in code by SMS',
    tag,
  }),
  bySms: defineRoute({
    path: '/accountv2/login/by_sms',
    body: z.object({ phone: phoneField, code: smsCodeField }),
    data: z.object({ login_token: text() }),
    auth: false,
    summary: 'Sign in (or sign up) with an SMS code',
    tag,
  }),
  bindPhone: defineRoute({
    path: '/accountv2/login/bind_phone',
    body: z.object({ phone: phoneField, code: smsCodeField, login_token: loginToken }),
    data: z.object({ login_token: text() }),
    auth: false,
    summary: 'Bind a phone to a new WeChat account and sign in',
    tag,
  }),
  logout: defineRoute({
    path: '/accountv2/login/logout',
    body: emptyBody,
    data: z.null(),
    auth: true,
    summary: 'Revoke the current session',
    tag,
  }),
  userInfo: defineRoute({
    path: '/accountv2/user/info',
    body: emptyBody,
    data: userInfo,
    auth: true,
    summary: 'The signed-in user and their current space',
    tag,
  }),
  devWechatScan: defineRoute({
    path: '/accountv2/login/dev_wechat_scan',
    body: z.object({
      code: text().min(1).max(64),
      /** Reuse to come back as the same WeChat user; omit to be a new one. */
      openid: text().min(1).max(64).optional(),
      nickname: text().max(30).optional(),
    }),
    data: z.object({ openid: text() }),
    auth: false,
    summary: 'Dev WeChat provider only: simulate scanning a QR code',
    tag,
  }),
} as const;
