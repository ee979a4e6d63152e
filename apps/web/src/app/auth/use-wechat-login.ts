import { authRoutes } from '@athena/contract';
import { api } from '../../lib/api-client.ts';
import { useWechatQr } from '../../shared/hooks/use-wechat-qr.ts';

interface Callbacks {
  onSignedIn: (token: string) => void;
  onNeedBindPhone: (loginToken: string) => void;
}

/** WeChat sign-in: the shared QR flow, exchanged with by_wechat_code. */
export function useWechatLogin(callbacks: Callbacks) {
  return useWechatQr(
    () => api(authRoutes.getWechatUrl),
    async (code) => {
      const result = await api(authRoutes.byWechatCode, { code });
      if (result.need_bind_phone) callbacks.onNeedBindPhone(result.login_token);
      else callbacks.onSignedIn(result.login_token);
    },
  );
}
