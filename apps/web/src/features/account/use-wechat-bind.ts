import { accountRoutes, authRoutes, ERRORS, WECHAT_POLL_INTERVAL_MS } from '@athena/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, api, errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';

export type WechatBindStatus = 'loading' | 'active' | 'scanned' | 'expired' | 'error' | 'done';

const DEAD_QR_CODES = new Set<unknown>([ERRORS.WECHAT_QR_EXPIRED.code, ERRORS.WECHAT_CODE_USED.code]);

/**
 * Linking WeChat works like the WeChat sign-in (spec §4): a QR from wechat/bind_qr, then
 * check_wechat_url every 2 s until it says true, then wechat/bind. Polling lives in an effect, so
 * closing the dialog stops it.
 */
export function useWechatBind(onBound: () => void) {
  const [status, setStatus] = useState<WechatBindStatus>('loading');
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  const onBoundRef = useRef(onBound);
  onBoundRef.current = onBound;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `generation` is the refresh trigger.
  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const later = (fn: () => void) => {
      timer = setTimeout(fn, WECHAT_POLL_INTERVAL_MS);
    };
    const fail = (message: string | null, next: WechatBindStatus) => {
      setError(message);
      setStatus(next);
    };

    const poll = async (code: string, expiresAt: number) => {
      if (cancelled) return;
      if (Date.now() >= expiresAt) return fail(null, 'expired');
      try {
        const scanned = await api(authRoutes.checkWechatUrl, { code });
        if (cancelled) return;
        if (!scanned) return later(() => poll(code, expiresAt));
        setStatus('scanned');
        await api(accountRoutes.wechatBind, { code });
        if (cancelled) return;
        setStatus('done');
        onBoundRef.current();
      } catch (caught) {
        if (cancelled) return;
        if (caught instanceof ApiError && DEAD_QR_CODES.has(caught.code)) return fail(null, 'expired');
        // e.g. "This WeChat account is linked to another account": say so; a new QR may be tried.
        if (caught instanceof ApiError && caught.kind === 'business') {
          return fail(errorText(caught, currentLocale()), 'expired');
        }
        later(() => poll(code, expiresAt));
      }
    };

    (async () => {
      setStatus('loading');
      setError(null);
      try {
        const qr = await api(accountRoutes.wechatBindQr);
        if (cancelled) return;
        setUrl(qr.url);
        setStatus('active');
        const expiresAt = Date.now() + qr.expires_in * 1000;
        later(() => poll(qr.code, expiresAt));
      } catch (caught) {
        if (cancelled) return;
        fail(errorText(caught, currentLocale()), 'error');
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
