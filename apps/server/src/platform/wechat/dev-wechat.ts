import type { WechatProvider } from './wechat-provider.ts';

/** Offline provider: the QR opens our own page that simulates the scan (see dev_wechat_scan). */
export function createDevWechatProvider(publicUrl: string): WechatProvider {
  return {
    name: 'dev',
    async createQr(sceneStr) {
      return { url: `${publicUrl.replace(/\/$/, '')}/dev/wechat-scan/${encodeURIComponent(sceneStr)}` };
    },
  };
}
