import type { z } from 'zod';
import type { ContractRoute } from './contract-routes.ts';
import type { SeededObjects } from './seed-team.ts';

/** A field that names an object: `id`, `*_id`, `*_ids`, `code`, `*_token`, `token`, or OpenAI's `model`. */
export const isIdSlot = (key: string) => /(^|_)(ids?|code|token)$/.test(key) || key === 'model';

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  element?: z.ZodType;
}
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The names of every id slot in a request schema, nested objects included (e.g. `knowledge_ids`). */
export function idSlotsOf(schema: z.ZodType): string[] {
  const slots = new Set<string>();
  const walk = (node: z.ZodType | undefined) => {
    if (!node) return;
    const def = defOf(node);
    if (def.type === 'object') {
      for (const [key, field] of Object.entries(def.shape ?? {})) {
        if (isIdSlot(key)) slots.add(key);
        walk(field);
      }
    }
    walk(def.innerType);
    walk(def.in);
    walk(def.element);
    for (const option of def.options ?? []) walk(option);
  };
  walk(schema);
  return [...slots];
}

/** What a request sends besides its JSON body: an upload's query string and headers. */
export function requestSchemasOf(route: ContractRoute): z.ZodType[] {
  if (route.kind === 'upload') return [route.descriptor.query, route.descriptor.headers];
  return [route.body];
}

type Slot = keyof SeededObjects;

// `id` means the object the route's path is about; the longest matching prefix wins.
const ID_BY_PATH: [prefix: string, slot: Slot][] = [
  ['/api/athena/v1/agent/conversation/', 'conversation'],
  ['/api/athena/v1/chat/conversation/', 'chatConversation'],
  ['/api/athena/v1/profile/field/', 'profileField'],
  ['/api/athena/v1/profile/activation/template/', 'activationTemplate'],
  ['/api/athena/v1/profile/activation/event/', 'activationEvent'],
  ['/api/athena/v1/profile/customer/', 'chatCustomer'],
  ['/api/athena/v1/agent/api_key/', 'apiKeyId'],
  ['/api/athena/v1/agent/', 'agent'],
  ['/api/athena/v1/knowledge/group/', 'group'],
  ['/api/athena/v1/knowledge/unit/', 'unit'],
  ['/api/athena/v1/knowledge/segment/', 'segment'],
  ['/api/athena/v1/knowledge/', 'knowledge'],
  ['/api/athena/v1/model_key/', 'modelKey'],
  ['/api/athena/v1/mcp/token/', 'mcpToken'],
  ['/api/athena/v1/mcp/tool/', 'mcpTool'],
  ['/api/athena/v1/mcp/external/', 'mcpExternal'],
  ['/api/athena/v1/workflow/group/', 'workflowGroup'],
  ['/api/athena/v1/workflow/version/', 'workflowVersion'],
  ['/api/athena/v1/workflow/template/', 'workflowTemplate'],
  ['/api/athena/v1/workflow/api_key/', 'workflowApiKey'],
  ['/api/athena/v1/workflow/', 'workflow'],
  ['/api/athena/v1/billing/recharge/', 'rechargeOrder'],
  // Platform models belong to no team: a team's key stands in (a non-operator is refused first).
  ['/api/athena/v1/billing/operator/platform_model/', 'modelKey'],
  ['/api/athena/v1/custom_business/attachment', 'attachment'],
  ['/api/athena/v1/media/group/', 'mediaGroup'],
  ['/api/athena/v1/media/library/', 'mediaLibrary'],
  ['/api/athena/v1/media/item/', 'mediaItem'],
  ['/api/athena/v1/custom_business/', 'customRequest'],
  ['/api/athena/v1/team/invite/', 'invite'],
  ['/api/athena/v1/space/', 'teamId'],
  ['/accountv2/user/sessions/', 'creatorSession'],
];

// `code` is a share link's, an invite's, or a WeChat QR's code, by path.
const CODE_BY_PATH: [prefix: string, slot: Slot][] = [
  ['/api/athena/v1/share/', 'shareCode'],
  ['/api/athena/v1/invite/', 'inviteCode'],
  ['/accountv2/user/wechat/bind', 'wechatBindCode'],
  // A sign-in QR code: team A's creator's bind code stands in (a scanned code of someone else).
  ['/accountv2/login/', 'wechatBindCode'],
];

const byPrefix = (table: [string, Slot][], path: string) =>
  table.filter(([prefix]) => path.startsWith(prefix)).sort((a, b) => b[0].length - a[0].length)[0]?.[1];

const BY_NAME: Record<string, Slot | ((path: string) => Slot | undefined)> = {
  id: (path) => byPrefix(ID_BY_PATH, path),
  code: (path) => byPrefix(CODE_BY_PATH, path),
  agent_id: 'agent',
  conversation_id: (path) =>
    path.includes('/share/') ? 'shareConversation' : path.includes('/chat/') ? 'chatConversation' : 'conversation',
  customer_id: 'chatCustomer',
  before_id: 'chatMessage',
  after_id: 'chatMessage',
  knowledge_id: 'knowledge',
  knowledge_ids: 'knowledge',
  unit_id: 'unit',
  ids: (path) => (path.startsWith('/api/athena/v1/profile/') ? 'profileField' : 'unit'),
  field_id: 'profileField',
  change_id: 'profileChange',
  group_id: (path) =>
    path.startsWith('/api/athena/v1/workflow/')
      ? 'workflowGroup'
      : path.startsWith('/api/athena/v1/media/')
        ? 'mediaGroup'
        : 'group',
  library_id: 'mediaLibrary',
  media_item_id: 'mediaItem',
  workflow_id: 'workflow',
  version_id: 'workflowVersion',
  run_id: 'workflowRun',
  template_id: (path) =>
    path.startsWith('/api/athena/v1/profile/activation/') ? 'activationTemplate' : 'workflowTemplate',
  event_id: 'activationEvent',
  customer_ids: 'chatCustomer',
  model_key_id: 'modelKey',
  embedding_model_key_id: 'modelKey',
  user_id: 'memberId',
  selected_space_id: 'teamId',
  default_space_id: 'teamId',
  attachment_ids: 'attachment',
  order_id: 'rechargeOrder',
  space_id: 'teamId',
  subject_id: 'agent',
  token: 'realNameToken',
  visitor_id: 'visitorId',
  model: 'agentPublicId',
  // An MCP tool's target: a knowledge base stands in for every kind (the stranger's lookup is the same).
  target_id: 'knowledge',
  tool_id: 'mcpTool',
  // An external MCP server (the workflow's MCP tool node names one too).
  server_id: 'mcpExternal',
};

/**
 * Slots that name no object of another person, and why: the caller's own codes and tokens, or a
 * value the client makes up. The authorization test fills them with values of the caller's own.
 */
export const OWN_VALUE: Record<string, string> = {
  '/accountv2/login/bind_phone login_token': 'the bind-phone token of the caller’s own WeChat sign-in',
  '/accountv2/login/by_sms code': 'an SMS code sent to the caller’s phone',
  '/accountv2/login/bind_phone code': 'an SMS code sent to the caller’s phone',
  '/accountv2/user/change_phone code': 'an SMS code sent to the caller’s new phone',
  '/accountv2/login/dev_wechat_scan code': 'the dev provider simulating WeChat scanning a QR code',
  '/api/athena/v1/knowledge/unit/upload batch_id': 'a batch id the upload page makes up',
  '/api/athena/v1/share/messages visitor_id': 'a visitor id the share page makes up',
  '/api/athena/v1/share/chat visitor_id': 'a visitor id the share page makes up',
  // Inside the workflow document the caller sends: names within that document, not stored objects.
  '/api/athena/v1/workflow/draft/save parent_id': 'a node id inside the document being saved',
  '/api/athena/v1/workflow/draft/save code': 'a code node’s source text',
  '/api/athena/v1/workflow/node/run node_id': 'a node id inside the workflow’s own document',
  '/api/athena/v1/chat/message/send client_msg_id': 'a message id the console makes up, so a retry is the same message',
  '/api/athena/v1/chat/wecom/connect callback_token': 'the callback Token the admin sets in WeCom’s console',
  '/api/athena/v1/billing/operator/adjust request_id': 'an id the operator’s form makes up, so a retry adjusts once',
};

/**
 * Slots whose value is itself the permission: whoever holds a share link or an invite link may
 * use it (docs/agents.md, docs/permissions.md). Filled with team A's value; a route whose slots
 * are all of these two kinds takes no foreign id, so the stranger has nothing to try there.
 */
export const CAPABILITY: Record<string, string> = {
  '/api/athena/v1/share/info code': 'a public share link',
  '/api/athena/v1/share/messages code': 'a public share link',
  '/api/athena/v1/share/chat code': 'a public share link',
  '/api/athena/v1/invite/get code': 'an invite link',
  '/api/athena/v1/invite/accept code': 'an invite link',
  // The page that shows a QR code polls it, for signing in and for binding WeChat alike.
  '/accountv2/login/check_wechat_url code': 'a WeChat QR code, polled by the page that shows it',
};

/**
 * Slots for kinds of objects that do not exist yet, so there is nothing of anyone's to name: the
 * server keeps the ids as given. When the kind arrives, seed one in seed-team.ts, map the slot in
 * BY_NAME and delete the line here.
 */
export const NO_OBJECTS_YET: Record<string, string> = {
  '/api/athena/v1/agent/create workflow_ids': 'workflows arrive in a later issue',
  '/api/athena/v1/agent/update workflow_ids': 'workflows arrive in a later issue',
};

export type SlotKind = 'foreign' | 'own' | 'capability' | 'unmapped';

/** How the authorization test treats one id slot of a route. */
export function slotKind(path: string, key: string): SlotKind {
  const name = `${path} ${key}`;
  if (name in OWN_VALUE) return 'own';
  if (name in CAPABILITY) return 'capability';
  if (name in NO_OBJECTS_YET) return 'own';
  return resolveSlot(path, key) ? 'foreign' : 'unmapped';
}

/** The seeded object an id slot of a route names, or undefined when the test cannot tell. */
export function resolveSlot(path: string, key: string): Slot | undefined {
  const rule = BY_NAME[key];
  return typeof rule === 'function' ? rule(path) : rule;
}

/** The value for a slot: the seeded object's id (a list of one for `*_ids`). */
export function slotValue(objects: SeededObjects, path: string, key: string): unknown {
  const slot = resolveSlot(path, key);
  if (!slot) return undefined;
  return key.endsWith('_ids') || key === 'ids' ? [objects[slot]] : objects[slot];
}
