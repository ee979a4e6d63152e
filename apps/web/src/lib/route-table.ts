import type { ParseKeys } from 'i18next';

type TitleKey = Extract<ParseKeys, `routes.${string}`>;

interface RouteInfo {
  /** React Router path pattern. */
  path: string;
  /** Locale key of the page title (and the navigation label). */
  title: TitleKey;
  /** The navigation entry (a route name) highlighted while this route shows; defaults to itself. */
  nav?: string;
}

/**
 * Pages named in the navigation whose feature is not built yet: the menu marks them as coming, and
 * each shows what it will be (features/placeholder/not-available-page.tsx), never sample data.
 */
export const COMING_ROUTES = ['aiSoftware'] as const satisfies readonly RouteName[];

/**
 * Every named route of the app (requirements.md, Screens and routes) in one table: the router, the sider navigation and the
 * navigation helper all read it, so a path changes in one place.
 */
export const ROUTES = {
  dashboard: { path: '/dashboard', title: 'routes.dashboard' },
  aiSoftware: { path: '/ai-software', title: 'routes.aiSoftware' },
  apps: { path: '/apps', title: 'routes.apps' },
  agents: { path: '/agents', title: 'routes.agents' },
  agentDetail: { path: '/agents/:agentId', title: 'routes.agentDetail', nav: 'agents' },
  customAiBusiness: { path: '/custom-ai-business', title: 'routes.customAiBusiness' },
  aiWorkflows: { path: '/ai-workflows', title: 'routes.aiWorkflows' },
  workflowEditor: { path: '/ai-workflows/:workflowId', title: 'routes.workflowEditor', nav: 'aiWorkflows' },
  workflowRuns: { path: '/ai-workflows/:workflowId/runs', title: 'routes.workflowRuns', nav: 'aiWorkflows' },
  workflowTemplates: { path: '/workflow-templates', title: 'routes.workflowTemplates' },
  workflowGroup: { path: '/AIWorkflow/group/:groupId', title: 'routes.workflowGroup', nav: 'aiWorkflows' },
  medialib: { path: '/medialib', title: 'routes.medialib' },
  mediaItem: { path: '/medialib/media/:mediaId', title: 'routes.mediaItem', nav: 'medialib' },
  mediaGroup: { path: '/medialib/group/:groupId', title: 'routes.mediaGroup', nav: 'medialib' },
  plugin: { path: '/plugin', title: 'routes.plugin' },
  knowledge: { path: '/knowledge', title: 'routes.knowledge' },
  knowledgeGroup: { path: '/knowledge/group/:groupId', title: 'routes.knowledgeGroup', nav: 'knowledge' },
  knowledgeDetail: { path: '/knowledge/detail/:knowledgeId', title: 'routes.knowledgeDetail', nav: 'knowledge' },
  knowledgeUpload: { path: '/knowledge/:knowledgeId/upload', title: 'routes.knowledgeUpload', nav: 'knowledge' },
  knowledgeSegments: { path: '/knowledge/:knowledgeId/segments', title: 'routes.knowledgeSegments', nav: 'knowledge' },
  knowledgeUnit: { path: '/knowledge/:knowledgeId/:unitId', title: 'routes.knowledgeUnit', nav: 'knowledge' },
  feesCenter: { path: '/fees-center', title: 'routes.feesCenter' },
  authCenter: { path: '/auth-center', title: 'routes.authCenter' },
  teamCenter: { path: '/team-center', title: 'routes.teamCenter' },
  account: { path: '/account', title: 'routes.account' },
  accountFaceid: { path: '/account/faceid', title: 'routes.accountFaceid', nav: 'account' },
  settings: { path: '/settings', title: 'routes.settings' },
  chatHistory: { path: '/chat-history', title: 'routes.chatHistory' },
  userProfile: { path: '/user-profile', title: 'routes.userProfile' },
  // Outside the main layout.
  login: { path: '/login', title: 'routes.login' },
  prodLogin: { path: '/prodlogin', title: 'routes.login' },
  invite: { path: '/invite/:code', title: 'routes.invite' },
  onlyChatHistory: { path: '/only-chat-history', title: 'routes.chatHistory' },
  onlyUserProfile: { path: '/only-user-profile', title: 'routes.userProfile' },
  devWechatScan: { path: '/dev/wechat-scan/:code', title: 'routes.devWechatScan' },
  devFaceid: { path: '/dev/faceid/:token', title: 'routes.devFaceid' },
  /** The dev cashier's QR opens this (offline installs): anyone with the link "pays" a test recharge. */
  devCashier: { path: '/dev-cashier/:orderNo', title: 'routes.devCashier' },
  /** A published agent's public chat page (no sign-in). */
  share: { path: '/share/:code', title: 'routes.share' },
} as const satisfies Record<string, RouteInfo>;

export type RouteName = keyof typeof ROUTES;

export const isRouteName = (value: string): value is RouteName => Object.hasOwn(ROUTES, value);

/** The sider's groups, ordered the way a person thinks about the product. */
export const NAV_GROUPS = [
  { key: 'overview', title: 'nav.overview', items: ['dashboard'] },
  {
    key: 'build',
    title: 'nav.build',
    items: ['agents', 'apps', 'aiWorkflows', 'workflowTemplates', 'plugin', 'aiSoftware', 'customAiBusiness'],
  },
  { key: 'knowledgeMedia', title: 'nav.knowledgeMedia', items: ['knowledge', 'medialib'] },
  {
    key: 'teamBilling',
    title: 'nav.teamBilling',
    items: ['teamCenter', 'feesCenter', 'authCenter', 'account', 'settings'],
  },
  { key: 'analytics', title: 'nav.analytics', items: ['chatHistory', 'userProfile'] },
] as const satisfies readonly {
  key: string;
  title: Extract<ParseKeys, `nav.${string}`>;
  items: readonly RouteName[];
}[];

/** The navigation entry to highlight for a route. */
export function navKeyOf(name: RouteName): RouteName {
  const info: RouteInfo = ROUTES[name];
  return info.nav && isRouteName(info.nav) ? info.nav : name;
}
