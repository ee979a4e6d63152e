import { authRoutes, SMS_CODE_TTL_SECONDS, SMS_COOLDOWN_SECONDS } from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../platform/http/app-error.ts';
import type { RequestContext } from '../../platform/http/request-context.ts';
import { authedRoute, publicRoute } from '../../platform/http/route.ts';
import type { SessionService } from './session.service.ts';
import type { SignInService } from './sign-in.service.ts';
import type { SmsCodeService } from './sms-code.service.ts';
import type { WechatLoginService } from './wechat-login.service.ts';

export interface AuthRouteDeps {
  signIn: SignInService;
  smsCodes: SmsCodeService;
  wechat: WechatLoginService;
  sessions: SessionService;
  /** The dev scan call exists only with the dev WeChat provider. */
  devWechat: boolean;
}

const metaOf = (ctx: RequestContext) => ({
  ip: ctx.ip,
  userAgent: ctx.request.headers['user-agent'],
  language: ctx.language,
});

export function registerAuthRoutes(app: FastifyInstance, deps: AuthRouteDeps) {
  const { signIn, smsCodes, wechat, sessions } = deps;

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

  if (deps.devWechat) {
    publicRoute(app, authRoutes.devWechatScan, async (body) => {
      const openid = body.openid ?? `dev_${crypto.randomUUID().replaceAll('-', '')}`;
      const accepted = await wechat.recordScan({ sceneStr: body.code, openid, nickname: body.nickname });
      if (!accepted) throw new AppError('WECHAT_QR_EXPIRED');
      return { openid };
    });
  }
}
