import { z } from 'zod';
import { defineRoute, defineUpload, emptyBody, noParams } from './envelope.ts';
import { LANGUAGES } from './errors.ts';
import { text } from './text.ts';
import { NICKNAME_MAX_LENGTH, phoneField, smsCodeField } from './validation.ts';

const tag = 'account';

export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const AVATAR_TYPES = ['image/jpeg', 'image/png'] as const;

export const nicknameField = text({ error: 'NICKNAME_REQUIRED' })
  .trim()
  .min(1, { error: 'NICKNAME_REQUIRED' })
  .max(NICKNAME_MAX_LENGTH, { error: 'NICKNAME_TOO_LONG' });

export const THEMES = ['light', 'dark', 'system'] as const;

export const settingsSchema = z.object({
  /** null: the device decides (stored choice or browser language). */
  language: z.enum(LANGUAGES).nullable(),
  /** IANA zone; null: the device's zone. */
  timezone: text().nullable(),
  theme: z.enum(THEMES),
  /** Where to land after signing in; null: the last space used. */
  default_space_id: text().nullable(),
});
export type Settings = z.infer<typeof settingsSchema>;

export const sessionSchema = z.object({
  id: text(),
  current: z.boolean(),
  user_agent: text().nullable(),
  ip: text().nullable(),
  created_at: text(),
  last_seen_at: text(),
});

export const REAL_NAME_STATES = ['unverified', 'pending', 'verified', 'failed'] as const;
export const realNameSchema = z.object({
  state: z.enum(REAL_NAME_STATES),
  name_masked: text().nullable(),
  id_number_masked: text().nullable(),
  failure_reason: text().nullable(),
  verified_at: text().nullable(),
});
export type RealName = z.infer<typeof realNameSchema>;

/** 18-character mainland resident ID: 17 digits and a check character (digit or X). */
export const ID_NUMBER_PATTERN = /^\d{17}[\dXx]$/;
const CHECK_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const CHECK_CHARS = '10X98765432';

/** GB 11643 checksum of a mainland resident ID number. */
export function isValidIdNumber(value: string): boolean {
  if (!ID_NUMBER_PATTERN.test(value)) return false;
  const sum = CHECK_WEIGHTS.reduce((total, weight, index) => total + weight * Number(value[index]), 0);
  return CHECK_CHARS[sum % 11] === value[17].toUpperCase();
}

export const idNumberField = text({ error: 'ID_NUMBER_INVALID' })
  .trim()
  .refine(isValidIdNumber, { error: 'ID_NUMBER_INVALID' })
  .transform((value) => value.toUpperCase());

export const realNameField = text({ error: 'REAL_NAME_REQUIRED' })
  .trim()
  .min(1, { error: 'REAL_NAME_REQUIRED' })
  // Tencent FaceID accepts at most 32 characters; longer names fail here, not at the provider.
  .max(32, { error: 'REAL_NAME_TOO_LONG' });

const user = (path: string) => `/accountv2/user/${path}`;

export const accountRoutes = {
  update: defineRoute({
    path: user('update'),
    body: z.object({ nickname: nicknameField }),
    data: z.null(),
    auth: true,
    summary: 'Change my nickname',
    tag,
  }),
  changePhone: defineRoute({
    path: user('change_phone'),
    body: z.object({ phone: phoneField, code: smsCodeField }),
    data: z.object({ phone_masked: text() }),
    auth: true,
    summary: 'Move my account to a new phone number (code sent with send_sms type change_phone)',
    tag,
  }),
  wechatBindQr: defineRoute({
    path: user('wechat/bind_qr'),
    body: emptyBody,
    data: z.object({ url: text(), code: text(), expires_in: z.number().int() }),
    auth: true,
    summary: 'A QR code that links the scanning WeChat user to my account (poll check_wechat_url)',
    tag,
  }),
  wechatBind: defineRoute({
    path: user('wechat/bind'),
    body: z.object({ code: text().min(1).max(64) }),
    data: z.null(),
    auth: true,
    summary: 'Finish linking WeChat after the scan',
    tag,
  }),
  wechatUnbind: defineRoute({
    path: user('wechat/unbind'),
    body: emptyBody,
    data: z.null(),
    auth: true,
    summary: 'Unlink WeChat (only while a phone number remains to sign in with)',
    tag,
  }),
  sessions: defineRoute({
    path: user('sessions'),
    body: emptyBody,
    data: z.object({ items: z.array(sessionSchema) }),
    auth: true,
    summary: 'Where I am signed in',
    tag,
  }),
  revokeSession: defineRoute({
    path: user('sessions/revoke'),
    body: z.object({ id: text().min(1).max(64) }),
    data: z.null(),
    auth: true,
    summary: 'Sign out one of my other sessions',
    tag,
  }),
  revokeOtherSessions: defineRoute({
    path: user('sessions/revoke_others'),
    body: emptyBody,
    data: z.object({ revoked: z.number().int() }),
    auth: true,
    summary: 'Sign out everywhere else',
    tag,
  }),
  settingsGet: defineRoute({
    path: user('settings/get'),
    body: emptyBody,
    data: settingsSchema,
    auth: true,
    summary: 'My settings (they follow me to every device)',
    tag,
  }),
  settingsUpdate: defineRoute({
    path: user('settings/update'),
    body: settingsSchema.partial(),
    data: settingsSchema,
    auth: true,
    summary: 'Change some of my settings',
    tag,
  }),
  realNameGet: defineRoute({
    path: user('realname/get'),
    body: emptyBody,
    data: realNameSchema,
    auth: true,
    summary: 'My real-name verification state (masked)',
    tag,
  }),
  realNameStart: defineRoute({
    path: user('realname/start'),
    body: z.object({ name: realNameField, id_number: idNumberField }),
    data: z.object({ verify_url: text(), state: z.enum(REAL_NAME_STATES) }),
    auth: true,
    summary: 'Start a face check; open verify_url to finish it',
    tag,
  }),
  realNameRefresh: defineRoute({
    path: user('realname/refresh'),
    body: emptyBody,
    data: realNameSchema,
    auth: true,
    summary: 'Ask the provider for the result of a pending check',
    tag,
  }),
  realNameDevComplete: defineRoute({
    path: user('realname/dev_complete'),
    body: z.object({ token: text().min(1).max(128), outcome: z.enum(['pass', 'fail']) }),
    data: realNameSchema,
    auth: true,
    summary: 'Dev real-name provider only: finish the simulated face check',
    tag,
  }),
} as const;

/** The avatar upload: POST the image bytes with their content type. */
export const AVATAR_UPLOAD_PATH = user('avatar');
export const avatarUploadData = z.object({ avatar_url: text() });
export const avatarUpload = defineUpload({
  path: AVATAR_UPLOAD_PATH,
  query: noParams,
  headers: noParams,
  contentTypes: AVATAR_TYPES,
  maxBytes: AVATAR_MAX_BYTES,
  tooLarge: 'AVATAR_TOO_LARGE',
  data: avatarUploadData,
  auth: true,
  summary: 'Upload my avatar: the raw JPEG or PNG bytes (at most 2 MB) as the body',
  tag,
});
