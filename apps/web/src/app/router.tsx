import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { inviteLoader } from '../features/invite/invite-loader.ts';
import { loadFeatureStrings } from '../lib/i18n.ts';
import { COMING_ROUTES, ROUTES, type RouteName } from '../lib/route-table.ts';
import { FullPageSpin } from '../shared/ui/full-page-spin.tsx';
import { Root, type RouteHandle } from './root.tsx';
import { RouteError } from './route-error.tsx';

/** React.lazy for a named export; feature pages also wait for their texts (lib/i18n.ts). */
function lazyNamed<K extends string, P extends object>(
  loader: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
  { featureTexts = true }: { featureTexts?: boolean } = {},
) {
  return lazy(async () => {
    const [module] = await Promise.all([loader(), featureTexts ? loadFeatureStrings() : undefined]);
    return { default: module[name] };
  });
}

const MainLayout = lazyNamed(() => import('./layout/main-layout.tsx'), 'MainLayout');
const LoginPage = lazyNamed(() => import('./auth/login-page.tsx'), 'LoginPage', { featureTexts: false });
const DashboardPage = lazyNamed(() => import('../features/dashboard/dashboard-page.tsx'), 'DashboardPage');
const NotAvailablePage = lazyNamed(() => import('../features/placeholder/not-available-page.tsx'), 'NotAvailablePage');
const AccountPage = lazyNamed(() => import('../features/account/lazy-pages.ts'), 'AccountPage');
const FaceidPage = lazyNamed(() => import('../features/account/lazy-pages.ts'), 'FaceidPage');
const DevFaceidPage = lazyNamed(() => import('../features/account/lazy-pages.ts'), 'DevFaceidPage');
const SettingsPage = lazyNamed(() => import('../features/account/lazy-pages.ts'), 'SettingsPage');
const TeamCenterPage = lazyNamed(() => import('../features/team/team-center-page.tsx'), 'TeamCenterPage');
const AuthCenterPage = lazyNamed(() => import('../features/auth-center/auth-center-page.tsx'), 'AuthCenterPage');
// Agents: the list, the editor + playground (with the Markdown and highlighting libraries, which
// only chat pages load), the public share page and /apps — each its own chunk, none on /login.
const AgentsPage = lazyNamed(() => import('../features/agents/agents-page.tsx'), 'AgentsPage');
const AgentDetailPage = lazyNamed(() => import('../features/agents/agent-detail-page.tsx'), 'AgentDetailPage');
const SharePage = lazyNamed(() => import('../features/share/share-page.tsx'), 'SharePage');
const AppsPage = lazyNamed(() => import('../features/apps/apps-page.tsx'), 'AppsPage');
// Knowledge bases: the six pages share one chunk.
const knowledgePages = () => import('../features/knowledge/lazy-pages.ts');
const KnowledgePage = lazyNamed(knowledgePages, 'KnowledgePage');
const KnowledgeGroupPage = lazyNamed(knowledgePages, 'KnowledgeGroupPage');
const KnowledgeDetailPage = lazyNamed(knowledgePages, 'KnowledgeDetailPage');
const KnowledgeUploadPage = lazyNamed(knowledgePages, 'KnowledgeUploadPage');
const KnowledgeSegmentsPage = lazyNamed(knowledgePages, 'KnowledgeSegmentsPage');
const UnitSegmentsPage = lazyNamed(knowledgePages, 'UnitSegmentsPage');
// The workflow canvas (React Flow and its styles) is its own chunk, loaded only on the editor.
const WorkflowEditorPage = lazyNamed(
  () => import('../features/workflow/editor/workflow-editor-page.tsx'),
  'WorkflowEditorPage',
);
// The pages around the editor (list, groups, templates, run history) share one chunk.
const workflowPages = () => import('../features/workflow/lazy-pages.ts');
const WorkflowsPage = lazyNamed(workflowPages, 'WorkflowsPage');
const WorkflowGroupPage = lazyNamed(workflowPages, 'WorkflowGroupPage');
const WorkflowTemplatesPage = lazyNamed(workflowPages, 'WorkflowTemplatesPage');
const WorkflowRunsPage = lazyNamed(workflowPages, 'WorkflowRunsPage');
// Chat history and its embeddable twin share one chunk.
const chatHistoryPages = () => import('../features/chat-history/lazy-pages.ts');
const ChatHistoryPage = lazyNamed(chatHistoryPages, 'ChatHistoryPage');
const OnlyChatHistoryPage = lazyNamed(chatHistoryPages, 'OnlyChatHistoryPage');
// User profiles and their embeddable twin share one chunk.
const userProfilePages = () => import('../features/user-profile/lazy-pages.ts');
const UserProfilePage = lazyNamed(userProfilePages, 'UserProfilePage');
const OnlyUserProfilePage = lazyNamed(userProfilePages, 'OnlyUserProfilePage');
const CustomBusinessPage = lazyNamed(
  () => import('../features/custom-business/custom-business-page.tsx'),
  'CustomBusinessPage',
);
// The invitation signs visitors in with the shell's login panel, which loads with the page.
const InvitePage = lazy(async () => {
  const [page, auth] = await Promise.all([
    import('../features/invite/invite-page.tsx'),
    import('./auth/login-panel.tsx'),
    loadFeatureStrings(),
  ]);
  return { default: () => <page.InvitePage loginPanel={<auth.LoginPanel />} /> };
});
// Media libraries: the three pages share one chunk (the upload panel is in the layout).
const mediaPages = () => import('../features/media/lazy-pages.ts');
const MediaPage = lazyNamed(mediaPages, 'MediaPage');
const MediaGroupPage = lazyNamed(mediaPages, 'MediaGroupPage');
const MediaItemPage = lazyNamed(mediaPages, 'MediaItemPage');
// The team's MCP server (/plugin).
const McpPage = lazyNamed(() => import('../features/mcp/mcp-page.tsx'), 'McpPage');
const FeesCenterPage = lazyNamed(() => import('../features/billing/fees-center-page.tsx'), 'FeesCenterPage');
const DevCashierPage = lazyNamed(() => import('../features/dev-cashier/dev-cashier-page.tsx'), 'DevCashierPage');
const DevWechatScanPage = lazyNamed(
  () => import('../features/dev-wechat/dev-wechat-scan-page.tsx'),
  'DevWechatScanPage',
  { featureTexts: false },
);

const suspended = (node: ReactNode) => <Suspense fallback={<FullPageSpin />}>{node}</Suspense>;

const route = (name: RouteName, element: ReactNode, extra: Partial<RouteHandle> = {}): RouteObject => ({
  path: ROUTES[name].path,
  element,
  handle: { name, ...extra } satisfies RouteHandle,
});

/** Pages whose features arrive in later versions: real title, honest empty state. */

export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteError />,
    children: [
      route('login', suspended(<LoginPage />), { public: true }),
      route('prodLogin', suspended(<LoginPage />), { public: true }),
      route('devWechatScan', suspended(<DevWechatScanPage />), { public: true }),
      // Public: the dev cashier's QR is "paid" by whoever holds it, like a phone scanning a real one.
      route('devCashier', suspended(<DevCashierPage />), { public: true }),
      // Public: anyone with a share link chats without signing in.
      route('share', suspended(<SharePage />), { public: true }),
      // Not public: completing the simulated check needs the session (the login modal shows without one).
      route('devFaceid', suspended(<DevFaceidPage />)),
      // Public: signed-out visitors see the invitation first and sign in from it.
      {
        ...route('invite', suspended(<InvitePage />), { public: true }),
        loader: inviteLoader,
        hydrateFallbackElement: <FullPageSpin />,
      },
      // Embeddable (an iframe in another system): the page without the app's navigation.
      route('onlyChatHistory', suspended(<OnlyChatHistoryPage />)),
      route('onlyUserProfile', suspended(<OnlyUserProfilePage />)),
      // Redirects sit outside the layout so they apply before sign-in too.
      { path: '/', element: <Navigate to={ROUTES.dashboard.path} replace /> },
      { path: '*', element: <Navigate to={ROUTES.dashboard.path} replace /> },
      {
        element: suspended(<MainLayout />),
        children: [
          route('dashboard', <DashboardPage />),
          route('account', <AccountPage />),
          route('accountFaceid', <FaceidPage />),
          route('settings', <SettingsPage />),
          route('teamCenter', <TeamCenterPage />),
          route('authCenter', <AuthCenterPage />),
          route('agents', <AgentsPage />),
          route('agentDetail', <AgentDetailPage />),
          route('apps', <AppsPage />),
          route('customAiBusiness', <CustomBusinessPage />),
          route('aiWorkflows', <WorkflowsPage />),
          route('workflowGroup', <WorkflowGroupPage />),
          route('workflowTemplates', <WorkflowTemplatesPage />),
          route('workflowEditor', <WorkflowEditorPage />, { wide: true }),
          route('workflowRuns', <WorkflowRunsPage />),
          route('knowledge', <KnowledgePage />),
          route('knowledgeGroup', <KnowledgeGroupPage />),
          route('knowledgeDetail', <KnowledgeDetailPage />),
          route('knowledgeUpload', <KnowledgeUploadPage />),
          route('knowledgeSegments', <KnowledgeSegmentsPage />),
          route('knowledgeUnit', <UnitSegmentsPage />),
          route('chatHistory', <ChatHistoryPage />),
          route('userProfile', <UserProfilePage />),
          route('feesCenter', <FeesCenterPage />),
          route('medialib', <MediaPage />),
          route('mediaGroup', <MediaGroupPage />),
          route('mediaItem', <MediaItemPage />),
          route('plugin', <McpPage />),
          ...COMING_ROUTES.map((name) => route(name, <NotAvailablePage name={name} />)),
        ],
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
