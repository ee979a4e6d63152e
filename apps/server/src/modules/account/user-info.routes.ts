import { authRoutes, maskPhone } from '@athena/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../platform/http/app-error.ts';
import { authedRoute } from '../../platform/http/route.ts';
import { settingsOf } from '../auth/index.ts';
import type { UserRepo } from '../auth/user.repo.ts';
import type { SpaceService } from '../space/space.service.ts';

/** `/accountv2/user/info`: who is signed in, their settings, and the space they are in. */
export function registerUserInfoRoute(app: FastifyInstance, deps: { users: UserRepo; spaces: SpaceService }) {
  const { users, spaces } = deps;
  authedRoute(app, authRoutes.userInfo, async (_body, ctx) => {
    const user = await users.findById(ctx.userId);
    if (!user) throw new AppError('LOGIN_EXPIRED');
    return {
      id: user.id,
      nickname: user.nickname,
      avatar_url: user.avatarUrl,
      phone_masked: user.phone ? maskPhone(user.phone) : null,
      has_wechat: Boolean(user.wechatOpenid),
      real_name_verified: await users.isRealNameVerified(user.id),
      settings: settingsOf(user),
      created_at: user.createdAt.toISOString(),
      space: await spaces.current(user.id, ctx.space?.id ?? null, user.lastSpaceId),
    };
  });
}
