import { accountRoutes } from '@athena/contract';
import { useWechatQr } from '../../app/auth/use-wechat-qr.ts';
import { api } from '../../lib/api-client.ts';

/** Linking WeChat to the signed-in account: the sign-in's QR flow, exchanged with wechat/bind. */
export function useWechatBind(onBound: () => void) {
  return useWechatQr(
    () => api(accountRoutes.wechatBindQr),
    async (code) => {
      await api(accountRoutes.wechatBind, { code });
      onBound();
    },
  );
}
