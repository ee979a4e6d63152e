import { authRoutes, ERRORS, WECHAT_POLL_INTERVAL_MS } from '@athena/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, api, errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';

export type WechatQrStatus = 'loading' | 'active' | 'scanned' | 'expired' | 'error';

interface Callbacks {
  onSignedIn: (token: string) => void;
  onNeedBindPhone: (loginToken: string) => void;
}

/** Codes after which this QR can never succeed: show the expired overlay with a refresh. */
const DEAD_QR_CODES = new Set<unknown>([ERRORS.WECHAT_QR_EXPIRED.code, ERRORS.WECHAT_CODE_USED.code]);

/**
 * Spec §4: fetch a QR, poll check_wechat_url every 2 s until it says true, then exchange the code.
 * Polling lives in an effect, so it stops when the component unmounts — leaving WeChat mode,
 * closing the modal or navigating away all end it.
 */
export function useWechatLogin(callbacks: Callbacks) {
  const [status, setStatus] = useState<WechatQrStatus>('loading');
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  const callbacksRef = useRef(callbacks);
  callbacksRef.current = callbacks;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `generation` is the refresh trigger.
  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const later = (fn: () => void) => {
      timer = setTimeout(fn, WECHAT_POLL_INTERVAL_MS);
    };
    const expire = (message: string | null) => {
      setError(message);
      setStatus('expired');
    };

    const poll = async (code: string, expiresAt: number) => {
      if (cancelled) return;
      if (Date.now() >= expiresAt) return expire(null);
      try {
        const scanned = await api(authRoutes.checkWechatUrl, { code });
        if (cancelled) return;
        if (!scanned) return later(() => poll(code, expiresAt));
        setStatus('scanned');
        const result = await api(authRoutes.byWechatCode, { code });
        if (cancelled) return;
        if (result.need_bind_phone) callbacksRef.current.onNeedBindPhone(result.login_token);
        else callbacksRef.current.onSignedIn(result.login_token);
      } catch (caught) {
        if (cancelled) return;
        if (caught instanceof ApiError && DEAD_QR_CODES.has(caught.code)) return expire(null);
        if (caught instanceof ApiError && caught.kind === 'business') {
          return expire(errorText(caught, currentLocale()));
        }
        // A network blip: keep polling until the QR expires.
        later(() => poll(code, expiresAt));
      }
    };

    (async () => {
      setStatus('loading');
      setError(null);
      try {
        const qr = await api(authRoutes.getWechatUrl);
        if (cancelled) return;
        setUrl(qr.url);
        setStatus('active');
        const expiresAt = Date.now() + qr.expires_in * 1000;
        later(() => poll(qr.code, expiresAt));
      } catch (caught) {
        if (cancelled) return;
        setError(errorText(caught, currentLocale()));
        setStatus('error');
      }
    })();

    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [generation]);

  const refresh = useCallback(() => setGeneration((g) => g + 1), []);
  return { status, url, error, refresh };
}
