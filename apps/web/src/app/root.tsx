import { App } from 'antd';
import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useMatches } from 'react-router';
import { ROUTES, type RouteName } from '../lib/route-table.ts';
import { PENDING_NOTICE_KEY } from '../lib/storage-keys.ts';
import { useUserStore } from '../stores/user-store.ts';
import { useSession } from './use-session.ts';

const LoginModal = lazy(() => import('./auth/login-modal.tsx').then((m) => ({ default: m.LoginModal })));

export interface RouteHandle {
  name: RouteName;
  /** Public routes never show the login modal (the login page itself, the dev scan page). */
  public?: boolean;
  /**
   * Pages that need the whole window (the workflow editor's canvas): the app's sider starts hidden
   * (the header's menu button brings it back) and the page fills the area without padding.
   */
  wide?: boolean;
}

const isRouteHandle = (value: unknown): value is RouteHandle =>
  typeof value === 'object' && value !== null && 'name' in value;

/** The deepest matched route's handle. */
export function useRouteHandle(): RouteHandle | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i].handle;
    if (isRouteHandle(handle)) return handle;
  }
  return undefined;
}

/** Everything the app shares: session loading, the login modal, the page title, queued notices. */
export function Root() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const handle = useRouteHandle();
  const token = useUserStore((s) => s.token);
  const settings = useUserStore((s) => s.userinfo?.settings);
  useSession();

  // The person's settings follow them to every device: applied whenever user/info brings them.
  // Loaded on demand (dayjs time-zone plugins), so none of it weighs on /login.
  useEffect(() => {
    if (!settings) return;
    void import('../features/settings/lazy-settings.ts').then((m) => m.applySettings(settings));
  }, [settings]);

  useEffect(() => {
    document.title = handle ? `${t(ROUTES[handle.name].title)} · ${t('app.name')}` : t('app.name');
  }, [handle, t]);

  useEffect(() => {
    const notice = sessionStorage.getItem(PENDING_NOTICE_KEY);
    if (!notice) return;
    sessionStorage.removeItem(PENDING_NOTICE_KEY);
    void message.warning({ content: notice, duration: 6 });
  }, [message]);

  return (
    <>
      <Outlet />
      {!token && !handle?.public ? (
        <Suspense fallback={null}>
          <LoginModal />
        </Suspense>
      ) : null}
    </>
  );
}
