import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import { createDevRealNameProvider } from './platform/realname/dev-realname.ts';
import type { RealNameProvider } from './platform/realname/realname-provider.ts';
import { createTencentFaceIdProvider } from './platform/realname/tencent-faceid.ts';
import { createAliyunSmsProvider } from './platform/sms/aliyun-sms.ts';
import { createDevSmsProvider } from './platform/sms/dev-sms.ts';
import type { SmsProvider } from './platform/sms/sms-provider.ts';
import { createDevWechatProvider } from './platform/wechat/dev-wechat.ts';
import { createOfficialWechatProvider } from './platform/wechat/official-wechat.ts';

/** Picks the vendor implementations the configuration names (config.ts checks their settings). */
export function providersFromConfig(config: Config) {
  const sms = (log: FastifyBaseLogger): SmsProvider =>
    config.SMS_PROVIDER === 'aliyun'
      ? createAliyunSmsProvider({
          endpoint: config.ALIYUN_SMS_ENDPOINT,
          accessKeyId: config.ALIYUN_SMS_ACCESS_KEY_ID!,
          accessKeySecret: config.ALIYUN_SMS_ACCESS_KEY_SECRET!,
          signName: config.ALIYUN_SMS_SIGN_NAME!,
          templateCode: config.ALIYUN_SMS_TEMPLATE_CODE!,
        })
      : createDevSmsProvider(log);

  const realName = realNameProviderFromConfig(config);
  if (config.WECHAT_PROVIDER === 'official') {
    const official = createOfficialWechatProvider({
      apiBase: config.WECHAT_API_BASE,
      appId: config.WECHAT_APP_ID!,
      appSecret: config.WECHAT_APP_SECRET!,
    });
    return {
      sms,
      wechat: official,
      wechatUser: (openid: string) => official.fetchUser(openid),
      realName,
    };
  }
  return { sms, wechat: createDevWechatProvider(config.PUBLIC_URL), realName };
}

/** Real-name verification: Tencent Cloud FaceID, or the offline dev face check. */
export function realNameProviderFromConfig(config: Config): RealNameProvider {
  if (config.REALNAME_PROVIDER === 'tencent') {
    return createTencentFaceIdProvider({
      endpoint: config.TENCENT_FACEID_ENDPOINT,
      secretId: config.TENCENT_SECRET_ID!,
      secretKey: config.TENCENT_SECRET_KEY!,
      ruleId: config.TENCENT_FACEID_RULE_ID!,
    });
  }
  return createDevRealNameProvider(config.PUBLIC_URL);
}

/**
 * The offline stand-ins this configuration runs (SMS codes in the log, a simulated WeChat scan and
 * face check). Anyone can sign in to a public server that runs them, so a production start warns.
 */
export function devProvidersIn(config: Config): string[] {
  const settings = {
    SMS_PROVIDER: config.SMS_PROVIDER,
    WECHAT_PROVIDER: config.WECHAT_PROVIDER,
    REALNAME_PROVIDER: config.REALNAME_PROVIDER,
  };
  return Object.entries(settings)
    .filter(([, value]) => value === 'dev')
    .map(([name]) => `${name}=dev`);
}
