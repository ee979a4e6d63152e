import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { AppModule, PlatformDeps } from '../../platform/module.ts';
import type { RateLimits } from '../../platform/rate-limit/rate-limits.ts';
import type { SmsProvider } from '../../platform/sms/sms-provider.ts';
import type { WechatProvider } from '../../platform/wechat/wechat-provider.ts';
import { registerAuthRoutes } from './auth.routes.ts';
import { authPurgeJob } from './auth-purge.job.ts';
import { createSessionService } from './session.service.ts';
import { createSignInService } from './sign-in.service.ts';
import { createSmsCodeService } from './sms-code.service.ts';
import { createUserRepo } from './user.repo.ts';
import { registerWechatCallback } from './wechat-callback.routes.ts';
import { createWechatLoginService } from './wechat-login.service.ts';

export interface AuthModuleDeps extends PlatformDeps {
  config: Config;
  masterKey: Buffer;
  sms: SmsProvider;
  rateLimits: RateLimits;
  wechatProvider: WechatProvider;
  /** Only the official provider has a callback; it needs the vendor's user lookup. */
  wechatUser?: (openid: string) => Promise<{ unionid?: string }>;
}

/** Identities and signing in: users, sessions, SMS codes, WeChat QR sign-in and phone binding. */
export function createAuthModule(deps: AuthModuleDeps) {
  const { db, bus, now, log, config } = deps;
  const users = createUserRepo(db, bus);
  const sessions = createSessionService({ db, ttlDays: config.SESSION_TTL_DAYS, now, bus });
  const smsCodes = createSmsCodeService({
    db,
    provider: deps.sms,
    secret: deps.masterKey,
    testNumbers: config.SMS_TEST_NUMBERS,
    maxWaitSeconds: config.SMS_PHONE_MAX_WAIT_SECONDS,
    dailyLimitPerIp: config.SMS_DAILY_LIMIT_PER_IP,
    rateLimits: deps.rateLimits,
    now,
    log,
  });
  const wechat = createWechatLoginService({
    db,
    provider: deps.wechatProvider,
    qrTtlSeconds: config.WECHAT_QR_TTL_SECONDS,
    now,
  });
  const signIn = createSignInService({ accounts: users, sessions, smsCodes, wechat });

  const module: AppModule = {
    name: 'auth',
    async routes(app: FastifyInstance) {
      registerAuthRoutes(app, { signIn, smsCodes, wechat, sessions, devWechat: deps.wechatProvider.name === 'dev' });
      if (deps.wechatProvider.name === 'official' && config.WECHAT_CALLBACK_TOKEN) {
        await app.register(registerWechatCallback, {
          callbackToken: config.WECHAT_CALLBACK_TOKEN,
          wechat,
          fetchUser: deps.wechatUser,
          now,
        });
      }
    },
    schedules: [authPurgeJob({ sessions, smsCodes, wechat }, log)],
  };
  return { module, users, sessions, smsCodes, wechat, smsProvider: deps.sms };
}

export type AuthModule = ReturnType<typeof createAuthModule>;

/** A user row's settings as the contract shapes them (the account module shows and edits them). */
export { settingsOf } from './user.repo.ts';
