import { authRoutes, defineRoute, emptyBody, type RouteDescriptor } from '@athena/contract';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { authedRoute, publicRoute } from './route.ts';

// A descriptor whose type claims one flag while its value holds another (a cast, or one built at
// run time): only the check at registration can catch it.
const claiming = <A extends boolean>(auth: boolean) =>
  defineRoute({
    path: '/api/test/declared',
    body: emptyBody,
    data: z.null(),
    auth,
    summary: 'test',
    tag: 'test',
  }) as RouteDescriptor<typeof emptyBody, z.ZodNull, A>;

describe('route registration and the auth flag', () => {
  it('refuses at start-up a route registered against its descriptor’s auth flag', () => {
    const app = Fastify();
    // @ts-expect-error the types refuse a signed-in call registered as public
    expect(() => publicRoute(app, authRoutes.userInfo, () => null)).toThrow(
      '/accountv2/user/info is declared with auth: true and must be registered with authedRoute',
    );
    // @ts-expect-error and a sign-in call registered as needing a session
    expect(() => authedRoute(app, authRoutes.bySms, () => ({ login_token: '' }))).toThrow(
      '/accountv2/login/by_sms is declared with auth: false and must be registered with publicRoute',
    );
    expect(() => publicRoute(app, claiming<false>(true), () => null)).toThrow(/must be registered with authedRoute/);
    expect(() => authedRoute(app, claiming<true>(false), () => null)).toThrow(/must be registered with publicRoute/);
  });

  it('registers a route whose flag matches', async () => {
    const app = Fastify();
    expect(() => publicRoute(app, authRoutes.getWechatUrl, () => ({ url: '', code: '', expires_in: 0 }))).not.toThrow();
    expect(() => authedRoute(app, authRoutes.logout, () => null)).not.toThrow();
    await app.close();
  });
});
