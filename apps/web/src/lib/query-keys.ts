import type { CustomBusinessStatus } from '@athena/contract';

type SpaceId = string | null;
type BillingList = 'recharges' | 'ledger' | 'usage' | 'usageDaily';

/**
 * Every TanStack Query key of the app, one builder per domain, so a read and the invalidation
 * after a write cannot drift apart. A key's first parts are its prefix: invalidating
 * `queryKeys.knowledge.all(spaceId)` refreshes everything under it.
 *
 * Keys of one space start with their domain and the space id; switching spaces leaves
 * `['space', other]` and `['team', other, …]` alone (features/team/space-switching.ts), so keep
 * those two shapes as they are.
 */
export const queryKeys = {
  platform: {
    info: () => ['platformInfo'] as const,
    /** The scene list's labels come in the request's language. */
    scenes: (language: string) => ['platformScenes', language] as const,
  },
  session: {
    all: () => ['userInfo'] as const,
    userInfo: (token: string | null) => ['userInfo', token] as const,
  },
  space: {
    list: () => ['spaces'] as const,
    detail: (spaceId: SpaceId) => ['space', spaceId] as const,
  },
  account: {
    sessions: () => ['accountSessions'] as const,
    realName: () => ['realName'] as const,
    settings: () => ['settings'] as const,
  },
  team: {
    all: (spaceId: SpaceId) => ['team', spaceId] as const,
    members: (spaceId: SpaceId, page: { keyword: string; page: number }) => ['team', spaceId, 'members', page] as const,
    invites: (spaceId: SpaceId) => ['team', spaceId, 'invites'] as const,
    /** A picker's members (a longer page than the members tab), e.g. the fee records' member filter. */
    memberPicker: (spaceId: SpaceId, keyword: string) => ['team', spaceId, 'memberPicker', keyword] as const,
    audit: <F extends object>(spaceId: SpaceId, filters: F) => ['team', spaceId, 'audit', filters] as const,
  },
  invite: {
    preview: (code: string, token: string | null) => ['invite', code, token] as const,
  },
  modelKeys: {
    all: (spaceId: SpaceId) => ['modelKeys', spaceId] as const,
    byPurpose: (spaceId: SpaceId, purpose: 'chat' | 'embedding') => ['modelKeys', spaceId, purpose] as const,
  },
  /** A share link's public page: no space, anyone may open it. */
  share: (code: string) => ['share', code] as const,
  agents: {
    all: (spaceId: SpaceId) => ['agents', spaceId] as const,
    list: (spaceId: SpaceId, keyword: string) => ['agents', spaceId, 'list', keyword] as const,
    detail: (spaceId: SpaceId, id: string) => ['agents', spaceId, 'one', id] as const,
    conversations: (spaceId: SpaceId, id: string) => ['agents', spaceId, 'conversations', id] as const,
    apiKeys: (spaceId: SpaceId, id: string) => ['agents', spaceId, 'apiKeys', id] as const,
    apps: (spaceId: SpaceId) => ['agents', spaceId, 'apps'] as const,
  },
  media: {
    all: (spaceId: SpaceId) => ['media', spaceId] as const,
    groups: (spaceId: SpaceId) => ['media', spaceId, 'groups'] as const,
    libraries: (spaceId: SpaceId, groupId: string) => ['media', spaceId, 'libraries', groupId] as const,
    library: (spaceId: SpaceId, id: string) => ['media', spaceId, 'library', id] as const,
    usage: (spaceId: SpaceId) => ['media', spaceId, 'usage'] as const,
    items: <Q extends object>(spaceId: SpaceId, query: Q) => ['media', spaceId, 'items', query] as const,
    item: (spaceId: SpaceId, id: string) => ['media', spaceId, 'item', id] as const,
    url: (spaceId: SpaceId, id: string) => ['media', spaceId, 'url', id] as const,
  },
  knowledge: {
    all: (spaceId: SpaceId) => ['knowledge', spaceId] as const,
    groups: (spaceId: SpaceId) => ['knowledge', spaceId, 'groups'] as const,
    /** Every list of bases (all filters and searches). */
    lists: (spaceId: SpaceId) => ['knowledge', spaceId, 'list'] as const,
    list: (spaceId: SpaceId, groupId: string, keyword: string) =>
      ['knowledge', spaceId, 'list', groupId, keyword] as const,
    detail: (spaceId: SpaceId, id: string) => ['knowledge', spaceId, 'one', id] as const,
    units: (spaceId: SpaceId, id: string) => ['knowledge', spaceId, 'units', id] as const,
    /** Single units (the segment page's header); keyed by unit only, so a base's are found by their data. */
    anyUnit: (spaceId: SpaceId) => ['knowledge', spaceId, 'unit'] as const,
    unit: (spaceId: SpaceId, unitId: string) => ['knowledge', spaceId, 'unit', unitId] as const,
    /** Every page and search of one base's segments. */
    segments: (spaceId: SpaceId, id: string) => ['knowledge', spaceId, 'segments', id] as const,
    segmentPage: <Q extends object>(spaceId: SpaceId, id: string, query: Q) =>
      ['knowledge', spaceId, 'segments', id, query] as const,
    /** The chunking preview depends on the settings and sample only, not on a space. */
    preview: <S>(settings: S) => ['knowledge-preview', settings] as const,
  },
  workflows: {
    all: (spaceId: SpaceId) => ['workflows', spaceId] as const,
    /** One workflow with its draft (the canvas editor). */
    detail: (spaceId: SpaceId, id: string) => ['workflows', spaceId, 'one', id] as const,
    /** Every workflow of the space, for a picker (the sub-workflow node's choice). */
    picker: (spaceId: SpaceId) => ['workflows', spaceId, 'picker'] as const,
    groups: (spaceId: SpaceId) => ['workflows', spaceId, 'groups'] as const,
    /** Every list of workflows (all filters, searches and pages). */
    lists: (spaceId: SpaceId) => ['workflows', spaceId, 'list'] as const,
    list: <F extends object>(spaceId: SpaceId, filters: F) => ['workflows', spaceId, 'list', filters] as const,
    templates: (spaceId: SpaceId) => ['workflows', spaceId, 'templates'] as const,
    /** Built-in templates (names, descriptions, node titles) come in the request's language. */
    templateList: (spaceId: SpaceId, language: string) => ['workflows', spaceId, 'templates', language] as const,
    /** Every page and filter of one workflow's run history. */
    runs: (spaceId: SpaceId, workflowId: string) => ['workflows', spaceId, 'runs', workflowId] as const,
    runPage: <F extends object>(spaceId: SpaceId, workflowId: string, filters: F) =>
      ['workflows', spaceId, 'runs', workflowId, filters] as const,
    run: (spaceId: SpaceId, runId: string) => ['workflows', spaceId, 'run', runId] as const,
    /** One workflow read by the pages around the editor (run history), apart from the editor's own copy. */
    overview: (spaceId: SpaceId, id: string) => ['workflows', spaceId, 'overview', id] as const,
  },
  /** Chat history is read per scene too: the scene-id header decides what the server answers. */
  chatHistory: {
    all: (spaceId: SpaceId) => ['chatHistory', spaceId] as const,
    scene: (spaceId: SpaceId, sceneId: number) => ['chatHistory', spaceId, sceneId] as const,
    settings: (spaceId: SpaceId, sceneId: number) => ['chatHistory', spaceId, sceneId, 'settings'] as const,
    /** Every filter and page of the conversation list. */
    lists: (spaceId: SpaceId, sceneId: number) => ['chatHistory', spaceId, sceneId, 'list'] as const,
    list: <F extends object>(spaceId: SpaceId, sceneId: number, filters: F) =>
      ['chatHistory', spaceId, sceneId, 'list', filters] as const,
    conversation: (spaceId: SpaceId, sceneId: number, id: string) =>
      ['chatHistory', spaceId, sceneId, 'one', id] as const,
    customers: (spaceId: SpaceId, sceneId: number, keyword: string) =>
      ['chatHistory', spaceId, sceneId, 'customers', keyword] as const,
    /** Outside `scene`: live changes reload the scene's lists, not its WeCom connection. */
    wecom: (spaceId: SpaceId, sceneId: number) => ['chatHistory', spaceId, 'wecom', sceneId] as const,
  },
  /** User profiles are per scene like chat history (the scene-id header decides). */
  profile: {
    all: (spaceId: SpaceId) => ['profile', spaceId] as const,
    scene: (spaceId: SpaceId, sceneId: number) => ['profile', spaceId, sceneId] as const,
    fields: (spaceId: SpaceId, sceneId: number) => ['profile', spaceId, sceneId, 'fields'] as const,
    customers: <F extends object>(spaceId: SpaceId, sceneId: number, filters: F) =>
      ['profile', spaceId, sceneId, 'customers', filters] as const,
    customer: (spaceId: SpaceId, sceneId: number, id: string) => ['profile', spaceId, sceneId, 'customer', id] as const,
    /** One customer's changes; `fieldId` '' is every field. */
    history: (spaceId: SpaceId, sceneId: number, id: string, fieldId: string) =>
      ['profile', spaceId, sceneId, 'history', id, fieldId] as const,
  },
  /**
   * The fees center. An operator's lookup reads any team, so it has a prefix of its own; the dev
   * cashier's page is public and keyed by order number only.
   */
  billing: {
    all: (spaceId: SpaceId) => ['billing', spaceId] as const,
    summary: (spaceId: SpaceId) => ['billing', spaceId, 'summary'] as const,
    order: (spaceId: SpaceId, id: string) => ['billing', spaceId, 'order', id] as const,
    /** Every filter and page of one record list: `recharges`, `ledger`, `usage` or `usageDaily`. */
    lists: (spaceId: SpaceId, list: BillingList) => ['billing', spaceId, list] as const,
    list: <F extends object>(spaceId: SpaceId, list: BillingList, filters: F) =>
      ['billing', spaceId, list, filters] as const,
    platformModels: (spaceId: SpaceId) => ['billing', spaceId, 'platformModels'] as const,
    /** Agents or workflows to filter fee records by. */
    subjects: (spaceId: SpaceId, kind: 'agent' | 'workflow') => ['billing', spaceId, 'subjects', kind] as const,
    operatorLookup: (query: string) => ['billing-operator', 'lookup', query] as const,
    devCashier: (orderNo: string) => ['dev-cashier', orderNo] as const,
  },
  /** The team's MCP server (features/mcp/): settings, tokens, tools, candidates and the call log. */
  mcp: {
    all: (spaceId: SpaceId) => ['mcp', spaceId] as const,
    settings: (spaceId: SpaceId) => ['mcp', spaceId, 'settings'] as const,
    tokens: (spaceId: SpaceId) => ['mcp', spaceId, 'tokens'] as const,
    tools: (spaceId: SpaceId) => ['mcp', spaceId, 'tools'] as const,
    candidates: (spaceId: SpaceId) => ['mcp', spaceId, 'candidates'] as const,
    calls: <F extends object>(spaceId: SpaceId, filters: F) => ['mcp', spaceId, 'calls', filters] as const,
  },
  customBusiness: {
    /** Requests are also read across spaces by operators, so the prefix has no space in it. */
    all: () => ['custom-business'] as const,
    mine: (spaceId: SpaceId, page: { status: CustomBusinessStatus | undefined; page: number }) =>
      ['custom-business', spaceId, 'mine', page] as const,
    detail: (id: string | null, operator: boolean) =>
      ['custom-business', 'detail', operator ? 'operator' : 'member', id] as const,
    operator: <F extends object>(filters: F) => ['custom-business', 'operator', filters] as const,
  },
} as const;
