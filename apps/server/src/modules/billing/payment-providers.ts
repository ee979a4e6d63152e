import { readFileSync } from 'node:fs';
import { PAYMENT_NOTIFY_PATH_PREFIX } from '@athena/contract';
import type { Config } from '../../config.ts';
import { createAlipayProvider } from './alipay.ts';
import { createDevCashier, type DevCashier } from './dev-cashier.ts';
import type { PaymentChannel, PaymentProvider } from './payment-provider.ts';
import { createWechatPayProvider } from './wechat-pay.ts';
import { certificateSerial } from './wechat-pay-crypto.ts';

/**
 * A key from the environment: the PEM itself (line breaks may be written as \n), Alipay's bare
 * base64, or the path of a file that holds it.
 */
export function keyFrom(value: string) {
  const text = value.trim();
  if (text.startsWith('-----BEGIN')) return text.replaceAll('\\n', '\n');
  if (text.startsWith('/') || text.startsWith('.')) return readFileSync(text, 'utf8');
  return text;
}

/** The payment channels PAYMENT_CHANNELS names, built from their settings, in the order given. */
export function paymentProvidersFrom(config: Config, deps: { publicUrl: string; now: () => Date }) {
  const providers = new Map<PaymentChannel, PaymentProvider>();
  const notifyUrl = (channel: PaymentChannel) => `${deps.publicUrl}${PAYMENT_NOTIFY_PATH_PREFIX}${channel}`;
  let devCashier: DevCashier | null = null;
  for (const channel of config.PAYMENT_CHANNELS) {
    if (channel === 'dev') {
      devCashier = createDevCashier(deps);
      providers.set('dev', devCashier.provider);
    } else if (channel === 'wechat') {
      providers.set('wechat', createWechatPayProvider(wechatPayConfig(config, notifyUrl('wechat'), deps.now)));
    } else if (channel === 'alipay') {
      providers.set(
        'alipay',
        createAlipayProvider({
          appId: config.ALIPAY_APP_ID ?? '',
          sellerId: config.ALIPAY_SELLER_ID ?? '',
          appPrivateKeyPem: keyFrom(config.ALIPAY_PRIVATE_KEY ?? ''),
          alipayPublicKeyPem: keyFrom(config.ALIPAY_PUBLIC_KEY ?? ''),
          gateway: config.ALIPAY_GATEWAY,
          notifyUrl: notifyUrl('alipay'),
          now: deps.now,
        }),
      );
    }
  }
  return { providers: providers as ReadonlyMap<PaymentChannel, PaymentProvider>, devCashier };
}

/** WeChat Pay's settings: its public key (`PUB_KEY_ID_…`) and/or a platform certificate to trust. */
function wechatPayConfig(config: Config, notifyUrl: string, now: () => Date) {
  const platformPublicKeys = new Map<string, string>();
  if (config.WECHAT_PAY_PUBLIC_KEY && config.WECHAT_PAY_PUBLIC_KEY_ID) {
    platformPublicKeys.set(config.WECHAT_PAY_PUBLIC_KEY_ID, keyFrom(config.WECHAT_PAY_PUBLIC_KEY));
  }
  if (config.WECHAT_PAY_PLATFORM_CERT) {
    const certificate = keyFrom(config.WECHAT_PAY_PLATFORM_CERT);
    platformPublicKeys.set(certificateSerial(certificate), certificate);
  }
  return {
    mchId: config.WECHAT_PAY_MCH_ID ?? '',
    appId: config.WECHAT_PAY_APP_ID ?? '',
    merchantSerialNo: config.WECHAT_PAY_SERIAL_NO ?? '',
    merchantPrivateKeyPem: keyFrom(config.WECHAT_PAY_PRIVATE_KEY ?? ''),
    apiV3Key: config.WECHAT_PAY_API_V3_KEY ?? '',
    platformPublicKeys,
    notifyUrl,
    apiBase: config.WECHAT_PAY_API_BASE,
    now,
  };
}
