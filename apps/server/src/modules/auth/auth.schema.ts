import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';

// Tables of the auth module: identities (users) and how they sign in. Other modules may join them
// in queries (docs/code-style.md).

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    nickname: text('nickname').notNull(),
    avatarUrl: text('avatar_url'),
    phone: text('phone'),
    wechatOpenid: text('wechat_openid'),
    wechatUnionid: text('wechat_unionid'),
    /** The space the user last switched to; reused at the next sign-in. */
    lastSpaceId: uuid('last_space_id'),
    /** Settings that follow the user to every device (null: the device decides). */
    language: text('language'),
    timezone: text('timezone'),
    theme: text('theme').notNull().default('system'),
    /** Where to land after signing in; null means the last space used. */
    defaultSpaceId: uuid('default_space_id'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_phone_key').on(t.phone), uniqueIndex('users_wechat_openid_key').on(t.wechatOpenid)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** sha256 of the token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    userAgent: text('user_agent'),
    ip: text('ip'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('sessions_token_hash_key').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

export const smsCodes = pgTable(
  'sms_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    phone: text('phone').notNull(),
    purpose: text('purpose').notNull(),
    /** HMAC of phone and code with the server secret. */
    codeHash: text('code_hash').notNull(),
    ip: text('ip').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set when used, burnt by too many attempts, or replaced by a newer code. */
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [index('sms_codes_phone_idx').on(t.phone, t.createdAt), index('sms_codes_ip_idx').on(t.ip, t.createdAt)],
);

export const wechatLogins = pgTable(
  'wechat_logins',
  {
    /** The QR scene string the browser polls with. */
    code: text('code').primaryKey(),
    /** 'login', or 'bind' when a signed-in user links WeChat from the account page. */
    purpose: text('purpose').notNull().default('login'),
    bindUserId: uuid('bind_user_id'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    scannedAt: timestamp('scanned_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    openid: text('openid'),
    unionid: text('unionid'),
    nickname: text('nickname'),
    avatarUrl: text('avatar_url'),
  },
  (t) => [index('wechat_logins_expires_idx').on(t.expiresAt)],
);

/** Short-lived proof that a WeChat user without a phone scanned; only bind_phone accepts it. */
export const phoneBindings = pgTable('phone_bindings', {
  tokenHash: text('token_hash').primaryKey(),
  openid: text('openid').notNull(),
  unionid: text('unionid'),
  nickname: text('nickname'),
  avatarUrl: text('avatar_url'),
  createdAt: createdAt(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  consumedAt: timestamp('consumed_at', { withTimezone: true }),
});
