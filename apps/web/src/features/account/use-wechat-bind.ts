import { accountRoutes } from '@athena/contract';
import { api } from '../../lib/api-client.ts';
import { useWechatQr } from '../../shared/hooks/use-wechat-qr.ts';

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
