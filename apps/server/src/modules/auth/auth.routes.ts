import { authRoutes, maskPhone, SMS_CODE_TTL_SECONDS, SMS_COOLDOWN_SECONDS } from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../platform/http/app-error.ts';
import { authedRoute, publicRoute, type RequestContext } from '../../platform/http/route.ts';
import type { SpaceService } from '../space/space.service.ts';
import { type AccountRepo, settingsOf } from './account.repo.ts';
import type { SessionService } from './session.service.ts';
import type { SignInService } from './sign-in.service.ts';
import type { SmsCodeService } from './sms-code.service.ts';
import type { WechatLoginService } from './wechat-login.service.ts';

export interface AuthRouteDeps {
  signIn: SignInService;
  smsCodes: SmsCodeService;
  wechat: WechatLoginService;
  sessions: SessionService;
  accounts: AccountRepo;
  spaces: SpaceService;
  /** The dev scan call exists only with the dev WeChat provider. */
  devWechat: boolean;
}

const metaOf = (ctx: RequestContext) => ({
  ip: ctx.ip,
  userAgent: ctx.request.headers['user-agent'],
  language: ctx.language,
});

export function registerAuthRoutes(app: FastifyInstance, deps: AuthRouteDeps) {
  const { signIn, smsCodes, wechat, sessions, accounts, spaces } = deps;

  publicRoute(app, authRoutes.getWechatUrl, () => wechat.createQr());
  publicRoute(app, authRoutes.checkWechatUrl, (body) => wechat.isScanned(body.code));
  publicRoute(app, authRoutes.byWechatCode, (body, ctx) => signIn.byWechatCode(body.code, metaOf(ctx)));

  publicRoute(app, authRoutes.sendSms, async (body, ctx) => {
    await smsCodes.send(body.phone, body.type, ctx.ip);
    return { cooldown_seconds: SMS_COOLDOWN_SECONDS, expires_in: SMS_CODE_TTL_SECONDS };
  });
  publicRoute(app, authRoutes.bySms, (body, ctx) => signIn.bySms(body.phone, body.code, metaOf(ctx)));
  publicRoute(app, authRoutes.bindPhone, (body, ctx) =>
    signIn.bindPhone(body.phone, body.code, body.login_token, metaOf(ctx)),
  );

  authedRoute(app, authRoutes.logout, async (_body, ctx) => {
    await sessions.revoke(ctx.sessionId);
    return null;
  });

  authedRoute(app, authRoutes.userInfo, async (_body, ctx) => {
    const user = await accounts.findById(ctx.userId);
    if (!user) throw new AppError('LOGIN_EXPIRED');
    return {
      id: user.id,
      nickname: user.nickname,
      avatar_url: user.avatarUrl,
      phone_masked: user.phone ? maskPhone(user.phone) : null,
      has_wechat: Boolean(user.wechatOpenid),
      real_name_verified: await accounts.isRealNameVerified(user.id),
      settings: settingsOf(user),
      created_at: user.createdAt.toISOString(),
      space: await spaces.current(user.id, ctx.space?.id ?? null, user.lastSpaceId),
    };
  });

  if (deps.devWechat) {
    publicRoute(app, authRoutes.devWechatScan, async (body) => {
      const openid = body.openid ?? `dev_${crypto.randomUUID().replaceAll('-', '')}`;
      const accepted = await wechat.recordScan({ sceneStr: body.code, openid, nickname: body.nickname });
      if (!accepted) throw new AppError('WECHAT_QR_EXPIRED');
      return { openid };
    });
  }
}
