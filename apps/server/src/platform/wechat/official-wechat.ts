import { createTencentApi } from '../tencent-api.ts';
import { WechatApiError, type WechatProvider } from './wechat-provider.ts';

/** WeChat official-account API: access token, temporary string-scene QR codes, user info. */

export interface OfficialWechatOptions {
  apiBase: string;
  appId: string;
  appSecret: string;
  fetch?: typeof fetch;
  now?: () => number;
  timeoutMs?: number;
}

export type OfficialWechatProvider = WechatProvider & {
  fetchUser(openid: string): Promise<{ unionid?: string }>;
};

export function createOfficialWechatProvider(opts: OfficialWechatOptions): OfficialWechatProvider {
  const { call, withToken } = createTencentApi({
    ...opts,
    service: 'WeChat',
    error: (message, errcode) => new WechatApiError(message, errcode),
    async requestToken(call) {
      const json = await call('/cgi-bin/token', {
        grant_type: 'client_credential',
        appid: opts.appId,
        secret: opts.appSecret,
      });
      if (typeof json.access_token !== 'string' || typeof json.expires_in !== 'number') {
        throw new WechatApiError('WeChat token response lacks access_token/expires_in');
      }
      return { token: json.access_token, expiresIn: json.expires_in };
    },
  });

  return {
    name: 'official',

    async createQr(sceneStr, expireSeconds) {
      const json = await withToken((token) =>
        call(
          '/cgi-bin/qrcode/create',
          { access_token: token },
          {
            expire_seconds: expireSeconds,
            action_name: 'QR_STR_SCENE',
            action_info: { scene: { scene_str: sceneStr } },
          },
        ),
      );
      if (typeof json.url !== 'string' || !json.url) throw new WechatApiError('WeChat QR response lacks url');
      return { url: json.url };
    },

    async fetchUser(openid) {
      const json = await withToken((token) =>
        call('/cgi-bin/user/info', { access_token: token, openid, lang: 'zh_CN' }),
      );
      return typeof json.unionid === 'string' && json.unionid ? { unionid: json.unionid } : {};
    },
  };
}
