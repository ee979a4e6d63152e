import { authRoutes, ERRORS, WECHAT_POLL_INTERVAL_MS } from '@athena/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, api, errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';

export type WechatQrStatus = 'loading' | 'active' | 'scanned' | 'expired' | 'error' | 'done';

/** Codes after which this QR can never succeed: show the expired overlay with a refresh. */
const DEAD_QR_CODES = new Set<unknown>([ERRORS.WECHAT_QR_EXPIRED.code, ERRORS.WECHAT_CODE_USED.code]);

/**
 * The WeChat QR flow shared by sign-in and account linking (requirements.md, States): get a QR, poll
 * check_wechat_url every 2 s until it says true, then exchange the code once. Polling lives in an
 * effect, so it stops when the component unmounts — leaving WeChat mode, closing the dialog or
 * navigating away all end it. A business error during the exchange (e.g. "linked to another
 * account") is shown on the expired overlay, where a new QR can be tried.
 */
export function useWechatQr(
  createQr: () => Promise<{ url: string; code: string; expires_in: number }>,
  exchange: (code: string) => Promise<void>,
) {
  const [status, setStatus] = useState<WechatQrStatus>('loading');
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  const steps = useRef({ createQr, exchange });
  steps.current = { createQr, exchange };

  // biome-ignore lint/correctness/useExhaustiveDependencies: `generation` is the refresh trigger.
  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const later = (fn: () => void) => {
      timer = setTimeout(fn, WECHAT_POLL_INTERVAL_MS);
    };
    const fail = (message: string | null, next: WechatQrStatus = 'expired') => {
      setError(message);
      setStatus(next);
    };

    const poll = async (code: string, expiresAt: number) => {
      if (cancelled) return;
      if (Date.now() >= expiresAt) return fail(null);
      try {
        const scanned = await api(authRoutes.checkWechatUrl, { code });
        if (cancelled) return;
        if (!scanned) return later(() => poll(code, expiresAt));
        setStatus('scanned');
        await steps.current.exchange(code);
        if (!cancelled) setStatus('done');
      } catch (caught) {
        if (cancelled) return;
        if (caught instanceof ApiError && DEAD_QR_CODES.has(caught.code)) return fail(null);
        if (caught instanceof ApiError && caught.kind === 'business') return fail(errorText(caught, currentLocale()));
        // A network blip: keep polling until the QR expires.
        later(() => poll(code, expiresAt));
      }
    };

    (async () => {
      setStatus('loading');
      setError(null);
      try {
        const qr = await steps.current.createQr();
        if (cancelled) return;
        setUrl(qr.url);
        setStatus('active');
        const expiresAt = Date.now() + qr.expires_in * 1000;
        later(() => poll(qr.code, expiresAt));
      } catch (caught) {
        if (!cancelled) fail(errorText(caught, currentLocale()), 'error');
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
