import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { ROUTES, type RouteName } from '../lib/route-table.ts';
import { FullPageSpin } from './full-page-spin.tsx';
import { Root, type RouteHandle } from './root.tsx';
import { RouteError } from './route-error.tsx';

/** React.lazy for a named export. */
function lazyNamed<K extends string, P extends object>(loader: () => Promise<Record<K, ComponentType<P>>>, name: K) {
  return lazy(async () => ({ default: (await loader())[name] }));
}

const MainLayout = lazyNamed(() => import('./layout/main-layout.tsx'), 'MainLayout');
const LoginPage = lazyNamed(() => import('./auth/login-page.tsx'), 'LoginPage');
const DashboardPage = lazyNamed(() => import('../features/dashboard/dashboard-page.tsx'), 'DashboardPage');
const NotAvailablePage = lazyNamed(() => import('../features/placeholder/not-available-page.tsx'), 'NotAvailablePage');
const StandalonePage = lazyNamed(() => import('../features/placeholder/standalone-page.tsx'), 'StandalonePage');
const DevWechatScanPage = lazyNamed(
  () => import('../features/dev-wechat/dev-wechat-scan-page.tsx'),
  'DevWechatScanPage',
);

const suspended = (node: ReactNode) => <Suspense fallback={<FullPageSpin />}>{node}</Suspense>;

const route = (name: RouteName, element: ReactNode, extra: Partial<RouteHandle> = {}): RouteObject => ({
  path: ROUTES[name].path,
  element,
  handle: { name, ...extra } satisfies RouteHandle,
});

/** Pages whose features arrive in later versions: real title, honest empty state. */
const NOT_YET: RouteName[] = [
  'aiSoftware',
  'apps',
  'customAiBusiness',
  'aiWorkflows',
  'workflowTemplates',
  'workflowGroup',
  'medialib',
  'mediaItem',
  'mediaGroup',
  'plugin',
  'knowledge',
  'knowledgeGroup',
  'knowledgeDetail',
  'knowledgeUpload',
  'knowledgeSegments',
  'knowledgeUnit',
  'feesCenter',
  'authCenter',
  'teamCenter',
  'account',
  'accountFaceid',
  'settings',
  'chatHistory',
  'userProfile',
];

export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteError />,
    children: [
      route('login', suspended(<LoginPage />), { public: true }),
      route('prodLogin', suspended(<LoginPage />), { public: true }),
      route('devWechatScan', suspended(<DevWechatScanPage />), { public: true }),
      route('invite', suspended(<StandalonePage name="invite" />)),
      route('onlyChatHistory', suspended(<StandalonePage name="onlyChatHistory" />)),
      route('onlyUserProfile', suspended(<StandalonePage name="onlyUserProfile" />)),
      // Redirects sit outside the layout so they apply before sign-in too.
      { path: '/', element: <Navigate to={ROUTES.dashboard.path} replace /> },
      { path: '*', element: <Navigate to={ROUTES.dashboard.path} replace /> },
      {
        element: suspended(<MainLayout />),
        children: [
          route('dashboard', <DashboardPage />),
          ...NOT_YET.map((name) => route(name, <NotAvailablePage name={name} />)),
        ],
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
