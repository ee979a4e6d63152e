import { accountRoutes } from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { authedRoute } from '../../platform/http/route.ts';
import { type ObjectStorage, registerFileRoutes } from '../../platform/storage.ts';
import type { AccountService } from './account.service.ts';
import { registerAvatarUpload } from './avatar.ts';

/** `/accountv2/user/*`: each call acts on the signed-in caller only; no space header is needed. */
export function registerAccountRoutes(app: FastifyInstance, deps: { account: AccountService; storage: ObjectStorage }) {
  const { account } = deps;

  authedRoute(app, accountRoutes.update, async (body, ctx) => {
    await account.updateNickname(ctx.userId, body.nickname);
    return null;
  });
  authedRoute(app, accountRoutes.changePhone, (body, ctx) => account.changePhone(ctx.userId, body.phone, body.code));

  authedRoute(app, accountRoutes.wechatBindQr, (_body, ctx) => account.wechatBindQr(ctx.userId));
  authedRoute(app, accountRoutes.wechatBind, async (body, ctx) => {
    await account.wechatBind(ctx.userId, body.code);
    return null;
  });
  authedRoute(app, accountRoutes.wechatUnbind, async (_body, ctx) => {
    await account.wechatUnbind(ctx.userId);
    return null;
  });

  authedRoute(app, accountRoutes.sessions, (_body, ctx) => account.listSessions(ctx.userId, ctx.sessionId));
  authedRoute(app, accountRoutes.revokeSession, async (body, ctx) => {
    await account.revokeSession(ctx.userId, body.id);
    return null;
  });
  authedRoute(app, accountRoutes.revokeOtherSessions, (_body, ctx) =>
    account.revokeOtherSessions(ctx.userId, ctx.sessionId),
  );

  authedRoute(app, accountRoutes.settingsGet, (_body, ctx) => account.getSettings(ctx.userId));
  authedRoute(app, accountRoutes.settingsUpdate, (body, ctx) => account.updateSettings(ctx.userId, body));

  registerAvatarUpload(app, (userId, bytes, type) => account.setAvatar(userId, bytes, type));
  // Avatars are the only stored files so far; serving moves to its own module when others arrive.
  registerFileRoutes(app, deps.storage);
}
