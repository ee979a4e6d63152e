import { LANGUAGES, type Language, ROLE, type Settings, THEMES } from '@athena/contract';
import { and, eq, isNotNull } from 'drizzle-orm';
import { type InvalidationBus, TaggedCache } from '../../platform/cache.ts';
import type { Db } from '../../platform/db/database.ts';
import { hasPgCode } from '../../platform/db/sql.ts';
import { realNameVerifications } from '../realname/realname.schema.ts';
import { spaceMembers, spaces } from '../space/space.schema.ts';
import { users } from './auth.schema.ts';

export type UserRepo = ReturnType<typeof createUserRepo>;
export type UserRow = typeof users.$inferSelect;

/** The settings part of a user row, as the contract shapes it. */
export function settingsOf(user: UserRow): Settings {
  const language = (LANGUAGES as readonly string[]).includes(user.language ?? '') ? (user.language as Language) : null;
  const theme = (THEMES as readonly string[]).includes(user.theme) ? (user.theme as Settings['theme']) : 'system';
  return { language, timezone: user.timezone, theme, default_space_id: user.defaultSpaceId };
}

/** Columns `settings/update` may change, already validated. */
export interface SettingsPatch {
  language?: Language | null;
  timezone?: string | null;
  theme?: Settings['theme'];
  defaultSpaceId?: string | null;
}

/** PostgreSQL unique_violation, however the driver wraps it. */
const isUniqueViolation = (error: unknown) => hasPgCode(error, '23505');

export interface NewAccount {
  phone?: string;
  wechatOpenid?: string;
  wechatUnionid?: string;
  nickname: string;
  avatarUrl?: string;
  personalSpaceName: string;
}

export function createUserRepo(db: Db, bus: InvalidationBus) {
  // user/info reads the user on every page load; writes below publish `user:<id>`.
  const byId = new TaggedCache<UserRow>(60_000);
  const verified = new TaggedCache<boolean>(60_000);
  bus.subscribe((key) => {
    for (const cache of [byId, verified]) key === '*' ? cache.clear() : cache.invalidate(key);
  });

  const findBy = async (column: typeof users.phone | typeof users.wechatOpenid | typeof users.id, value: string) => {
    const [row] = await db.select().from(users).where(eq(column, value)).limit(1);
    return row;
  };

  return {
    async findById(id: string) {
      const cached = byId.get(id);
      if (cached) return cached;
      const row = await findBy(users.id, id);
      if (row) byId.set(id, row, [`user:${id}`]);
      return row;
    },
    findByPhone: (phone: string) => findBy(users.phone, phone),
    findByOpenid: (openid: string) => findBy(users.wechatOpenid, openid),

    /** First sign-in: the user and their personal space (they are its creator, balance 0). */
    async create(account: NewAccount): Promise<UserRow> {
      return db.transaction(async (tx) => {
        const [user] = await tx
          .insert(users)
          .values({
            phone: account.phone,
            wechatOpenid: account.wechatOpenid,
            wechatUnionid: account.wechatUnionid,
            nickname: account.nickname,
            avatarUrl: account.avatarUrl,
          })
          .returning();
        const [space] = await tx
          .insert(spaces)
          .values({ name: account.personalSpaceName, personal: true, creatorId: user.id })
          .returning({ id: spaces.id });
        await tx.insert(spaceMembers).values({ spaceId: space.id, userId: user.id, role: ROLE.creator });
        const [updated] = await tx
          .update(users)
          .set({ lastSpaceId: space.id })
          .where(eq(users.id, user.id))
          .returning();
        return updated;
      });
    },

    async setPhone(userId: string, phone: string) {
      await db.update(users).set({ phone }).where(eq(users.id, userId));
      await bus.publish(`user:${userId}`);
    },

    /** Cached with the user: a verification publishes `user:<id>` when it completes. */
    async isRealNameVerified(userId: string) {
      const cacheKey = `verified:${userId}`;
      const cached = verified.get(cacheKey);
      if (cached !== undefined) return cached;
      const [row] = await db
        .select({ id: realNameVerifications.id })
        .from(realNameVerifications)
        .where(and(eq(realNameVerifications.userId, userId), eq(realNameVerifications.state, 'verified')))
        .limit(1);
      verified.set(cacheKey, Boolean(row), [`user:${userId}`]);
      return Boolean(row);
    },

    /** Moves the account to another phone; 'taken' when another account won it first. */
    async changePhone(userId: string, phone: string): Promise<'ok' | 'taken'> {
      try {
        await db.update(users).set({ phone }).where(eq(users.id, userId));
      } catch (error) {
        if (isUniqueViolation(error)) return 'taken';
        throw error;
      }
      await bus.publish(`user:${userId}`);
      return 'ok';
    },

    async setNickname(userId: string, nickname: string) {
      await db.update(users).set({ nickname }).where(eq(users.id, userId));
      await bus.publish(`user:${userId}`);
    },

    async setAvatarUrl(userId: string, avatarUrl: string) {
      await db.update(users).set({ avatarUrl }).where(eq(users.id, userId));
      await bus.publish(`user:${userId}`);
    },

    /** Links a WeChat identity; 'taken' when the unique openid index says another account has it. */
    async linkWechat(userId: string, openid: string, unionid: string | undefined): Promise<'ok' | 'taken'> {
      try {
        await db
          .update(users)
          .set({ wechatOpenid: openid, wechatUnionid: unionid ?? null })
          .where(eq(users.id, userId));
      } catch (error) {
        if (isUniqueViolation(error)) return 'taken';
        throw error;
      }
      await bus.publish(`user:${userId}`);
      return 'ok';
    },

    /**
     * Unlinks WeChat only while a phone remains, checked in the same statement, so the account can
     * never end up with no way to sign in. False when it has no phone.
     */
    async unlinkWechat(userId: string) {
      const updated = await db
        .update(users)
        .set({ wechatOpenid: null, wechatUnionid: null })
        .where(and(eq(users.id, userId), isNotNull(users.phone)))
        .returning({ id: users.id });
      if (updated.length > 0) await bus.publish(`user:${userId}`);
      return updated.length > 0;
    },

    async updateSettings(userId: string, patch: SettingsPatch): Promise<UserRow | undefined> {
      const [row] = await db.update(users).set(patch).where(eq(users.id, userId)).returning();
      await bus.publish(`user:${userId}`);
      return row;
    },

    async setLastSpace(userId: string, spaceId: string) {
      await db.update(users).set({ lastSpaceId: spaceId }).where(eq(users.id, userId));
      await bus.publish(`user:${userId}`);
    },
  };
}
