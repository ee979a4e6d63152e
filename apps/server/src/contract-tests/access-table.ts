/**
 * Who may call each route, and what a caller who may not gets back. The contract's descriptors say
 * only whether a session is needed (`auth`); the roles come from docs/permissions.md (the
 * PERMISSIONS table and the rules around it) and the services that enforce it. A route missing
 * here fails the authorization test, so a new route must be placed in this table.
 *
 * - `public`: no session (sign-in, share pages, invite previews, platform facts).
 * - `self`: acts on the caller alone (their account, their spaces); no team object is involved.
 * - `member`: any member of the space may (view, create, use).
 * - `own`: members only on what they created; creator and admins on everything (`*.edit`,
 *   `*.delete`, custom-business withdraw and accept).
 * - `private`: only the person it belongs to, whatever their role (playground conversations):
 *   anyone else gets NOT_FOUND, as if it did not exist.
 * - `authority`: creator and admins (`member.invite`, `invite.revoke`, `team.rename`,
 *   `team.audit`, `model_key.manage`, `member.remove`).
 * - `creator`: the creator alone (`member.change_role`, `team.dissolve`, `team.transfer`).
 * - `operator`: platform operators (OPERATOR_PHONES), whatever their team.
 * - `api_key`: an agent's API key as bearer token (the OpenAI-compatible API).
 */
export type Need = 'public' | 'self' | 'member' | 'own' | 'private' | 'authority' | 'creator' | 'operator' | 'api_key';

export interface Access {
  need: Need;
  /**
   * What the stranger gets, acting from their own team with team A's ids (default NOT_FOUND
   * 40400: a foreign id answers exactly like a missing one). Several codes when more than one
   * refusal is right; 0 for a list whose filter simply matches nothing of theirs.
   */
  stranger?: number[];
  /**
   * For a route any member may call: seeded objects of the creator's own that the member's answer
   * must not contain even so (another person's conversations in a list).
   */
  privateTo?: 'creator';
  /** What team A's member gets instead of the usual refusal for `need` (a route with its own code). */
  member?: number;
}

const NOT_FOUND = 40400;
const FORBIDDEN = 40300;
const SPACE_UNAVAILABLE = 16023;
const WECHAT_QR_EXPIRED = 40020;
const WORKFLOW_NOT_FOUND = 40202;
const WORKFLOW_LOCK_FORBIDDEN = 40204;
const WORKFLOW_GROUP_NOT_FOUND = 40214;
const WORKFLOW_TEMPLATE_NOT_FOUND = 40215;
const WORKFLOW_IMPORT_INVALID = 40216;
const WORKFLOW_RUN_NOT_FOUND = 40211;
const CHAT_CONVERSATION_NOT_FOUND = 40501;
const CHAT_REPLY_AGENT_NOT_FOUND = 40521;
const RECHARGE_ORDER_NOT_FOUND = 40603;

const A = '/api/athena/v1';
const U = '/accountv2/user';
const L = '/accountv2/login';

export const ACCESS: Record<string, Access> = {
  // Sign-in: no session; the codes are the caller's own (id-slots.ts, NOT_FOREIGN).
  [`${L}/bind_phone`]: { need: 'public' },
  [`${L}/by_sms`]: { need: 'public' },
  // Someone else's WeChat bind code is not a sign-in code: refused as an unknown one.
  [`${L}/by_wechat_code`]: { need: 'public', stranger: [WECHAT_QR_EXPIRED] },
  [`${L}/check_wechat_url`]: { need: 'public' },
  [`${L}/dev_wechat_scan`]: { need: 'public' },
  [`${L}/get_wechat_url`]: { need: 'public' },
  [`${L}/send_sms`]: { need: 'public' },
  [`${L}/logout`]: { need: 'self' },

  // The account: every call acts on the caller (docs/auth.md).
  [`${U}/info`]: { need: 'self' },
  [`${U}/avatar`]: { need: 'self' },
  [`${U}/update`]: { need: 'self' },
  [`${U}/change_phone`]: { need: 'self' },
  [`${U}/realname/get`]: { need: 'self' },
  [`${U}/realname/start`]: { need: 'self' },
  [`${U}/realname/refresh`]: { need: 'self' },
  [`${U}/realname/dev_complete`]: { need: 'self' },
  [`${U}/sessions`]: { need: 'self' },
  [`${U}/sessions/revoke`]: { need: 'self' },
  [`${U}/sessions/revoke_others`]: { need: 'self' },
  [`${U}/settings/get`]: { need: 'self' },
  [`${U}/settings/update`]: { need: 'self', stranger: [SPACE_UNAVAILABLE] },
  [`${U}/wechat/bind_qr`]: { need: 'self' },
  [`${U}/wechat/bind`]: { need: 'self', stranger: [WECHAT_QR_EXPIRED] },
  [`${U}/wechat/unbind`]: { need: 'self' },

  // Spaces: an id of a space the caller does not belong to answers 16023 (docs/api.md).
  [`${A}/space/get`]: { need: 'self', stranger: [SPACE_UNAVAILABLE] },
  [`${A}/space/list`]: { need: 'self' },
  [`${A}/space/select`]: { need: 'self', stranger: [SPACE_UNAVAILABLE] },
  [`${A}/platform/info`]: { need: 'public' },
  [`${A}/scene/list`]: { need: 'public' },

  // Teams act on the space of the `space-id` header.
  [`${A}/team/create`]: { need: 'self' },
  [`${A}/team/update`]: { need: 'authority' },
  [`${A}/team/dissolve`]: { need: 'creator' },
  [`${A}/team/permissions`]: { need: 'member' },
  [`${A}/team/member/list`]: { need: 'member' },
  [`${A}/team/member/update_role`]: { need: 'creator' },
  [`${A}/team/member/remove`]: { need: 'authority' },
  [`${A}/team/member/leave`]: { need: 'member' },
  [`${A}/team/transfer`]: { need: 'creator' },
  [`${A}/team/invite/create`]: { need: 'authority' },
  [`${A}/team/invite/list`]: { need: 'authority' },
  [`${A}/team/invite/revoke`]: { need: 'authority' },
  [`${A}/team/audit/list`]: { need: 'authority' },
  // An invite code is the permission to see and join its team.
  [`${A}/invite/get`]: { need: 'public' },
  [`${A}/invite/accept`]: { need: 'self' },

  [`${A}/model_key/list`]: { need: 'member' },
  [`${A}/model_key/create`]: { need: 'authority' },
  [`${A}/model_key/update`]: { need: 'authority' },
  [`${A}/model_key/delete`]: { need: 'authority' },
  [`${A}/model_key/set_default`]: { need: 'authority' },
  [`${A}/model_key/test`]: { need: 'authority' },
  [`${A}/model_key/test_draft`]: { need: 'authority' },

  [`${A}/knowledge/group/list`]: { need: 'member' },
  [`${A}/knowledge/group/create`]: { need: 'member' },
  [`${A}/knowledge/group/rename`]: { need: 'own' },
  [`${A}/knowledge/group/delete`]: { need: 'own' },
  // A filter by another team's group matches nothing of the caller's, or is refused.
  [`${A}/knowledge/list`]: { need: 'member', stranger: [0, NOT_FOUND] },
  [`${A}/knowledge/get`]: { need: 'member' },
  [`${A}/knowledge/create`]: { need: 'member' },
  [`${A}/knowledge/update`]: { need: 'own' },
  [`${A}/knowledge/delete`]: { need: 'own' },
  [`${A}/knowledge/reindex`]: { need: 'own' },
  [`${A}/knowledge/search`]: { need: 'member' },
  [`${A}/knowledge/unit/list`]: { need: 'member' },
  [`${A}/knowledge/unit/get`]: { need: 'member' },
  [`${A}/knowledge/unit/preview`]: { need: 'member' },
  [`${A}/knowledge/unit/upload`]: { need: 'own' },
  [`${A}/knowledge/unit/from_media`]: { need: 'own' },
  [`${A}/knowledge/unit/start`]: { need: 'own' },
  [`${A}/knowledge/unit/cancel`]: { need: 'own' },
  [`${A}/knowledge/unit/retry`]: { need: 'own' },
  [`${A}/knowledge/unit/delete`]: { need: 'own' },
  [`${A}/knowledge/segment/list`]: { need: 'member' },
  [`${A}/knowledge/segment/create`]: { need: 'own' },
  [`${A}/knowledge/segment/update`]: { need: 'own' },
  [`${A}/knowledge/segment/set_enabled`]: { need: 'own' },
  [`${A}/knowledge/segment/delete`]: { need: 'own' },

  [`${A}/agent/list`]: { need: 'member' },
  [`${A}/agent/get`]: { need: 'member' },
  [`${A}/agent/create`]: { need: 'member' },
  [`${A}/agent/update`]: { need: 'own' },
  // Copying needs `agent.create` only: any member may copy any agent of the team.
  [`${A}/agent/duplicate`]: { need: 'member' },
  [`${A}/agent/delete`]: { need: 'own' },
  [`${A}/agent/share`]: { need: 'own' },
  [`${A}/agent/api_key/create`]: { need: 'own' },
  [`${A}/agent/api_key/list`]: { need: 'member' },
  [`${A}/agent/api_key/revoke`]: { need: 'own' },
  [`${A}/agent/app/list`]: { need: 'member' },
  // The playground chat continues only the caller's own conversation.
  // Chat history: every member reads and replies; the scene's channels are the authority's.
  // Another team's conversation reads as one that does not exist in the caller's scene.
  [`${A}/chat/settings/get`]: { need: 'member' },
  [`${A}/chat/ingest/rotate`]: { need: 'authority' },
  [`${A}/chat/ingest/disable`]: { need: 'authority' },
  [`${A}/chat/conversation/list`]: { need: 'member', stranger: [0] },
  [`${A}/chat/conversation/get`]: { need: 'member', stranger: [CHAT_CONVERSATION_NOT_FOUND] },
  [`${A}/chat/conversation/read`]: { need: 'member', stranger: [CHAT_CONVERSATION_NOT_FOUND] },
  [`${A}/chat/message/list`]: { need: 'member', stranger: [CHAT_CONVERSATION_NOT_FOUND] },
  [`${A}/chat/customer/search`]: { need: 'member' },
  [`${A}/chat/live`]: { need: 'member' },
  // Another team's agent cannot answer this team's customers.
  [`${A}/chat/reply/update`]: { need: 'authority', stranger: [CHAT_REPLY_AGENT_NOT_FOUND] },
  [`${A}/chat/message/send`]: { need: 'member', stranger: [CHAT_CONVERSATION_NOT_FOUND] },
  [`${A}/chat/message/draft`]: { need: 'member', stranger: [CHAT_CONVERSATION_NOT_FOUND] },
  [`${A}/chat/message/ai_reply`]: { need: 'member', stranger: [CHAT_CONVERSATION_NOT_FOUND] },
  [`${A}/chat/wecom/get`]: { need: 'member' },
  [`${A}/chat/wecom/connect`]: { need: 'authority' },
  [`${A}/chat/wecom/disconnect`]: { need: 'authority' },
  // User profiles (docs/user-profiles.md): members read profiles and edit values; fields are the authority's.
  [`${A}/profile/field/list`]: { need: 'member' },
  [`${A}/profile/field/create`]: { need: 'authority' },
  [`${A}/profile/field/update`]: { need: 'authority' },
  [`${A}/profile/field/delete`]: { need: 'authority' },
  [`${A}/profile/field/reorder`]: { need: 'authority' },
  // With no condition the stranger's own (empty) list; a condition on team A's field is not found.
  [`${A}/profile/customer/list`]: { need: 'member', stranger: [0, NOT_FOUND] },
  [`${A}/profile/customer/count`]: { need: 'member', stranger: [0, NOT_FOUND] },
  [`${A}/profile/customer/get`]: { need: 'member' },
  [`${A}/profile/value/set`]: { need: 'member' },
  [`${A}/profile/value/history`]: { need: 'member' },
  [`${A}/profile/value/revert`]: { need: 'member' },
  [`${A}/profile/extract`]: { need: 'member' },
  [`${A}/profile/extract/status`]: { need: 'member' },
  // Activation events: members see them; the creator and admins write templates and send (`profile.activate`).
  [`${A}/profile/activation/template/list`]: { need: 'member' },
  [`${A}/profile/activation/template/create`]: { need: 'authority' },
  [`${A}/profile/activation/template/update`]: { need: 'authority' },
  [`${A}/profile/activation/template/delete`]: { need: 'authority' },
  [`${A}/profile/activation/template/preview`]: { need: 'authority' },
  [`${A}/profile/activation/audience/count`]: { need: 'member', stranger: [0, NOT_FOUND] },
  [`${A}/profile/activation/event/list`]: { need: 'member' },
  [`${A}/profile/activation/event/get`]: { need: 'member' },
  [`${A}/profile/activation/event/create`]: { need: 'authority' },
  [`${A}/profile/activation/event/cancel`]: { need: 'authority' },
  [`${A}/profile/activation/send/list`]: { need: 'member', stranger: [0, NOT_FOUND] },
  // Behaviour and satisfaction: members read them; the question is the authority's. A stranger's
  // satisfaction list is their own (empty) one, unless it names team A's customer.
  [`${A}/profile/behaviour/list`]: { need: 'member' },
  [`${A}/profile/satisfaction/settings/get`]: { need: 'member' },
  [`${A}/profile/satisfaction/settings/update`]: { need: 'authority' },
  [`${A}/profile/satisfaction/list`]: { need: 'member', stranger: [0, NOT_FOUND] },
  [`${A}/profile/satisfaction/summary`]: { need: 'member', stranger: [0, NOT_FOUND] },
  // Reports: any member reads them; a stranger from their own team gets their own (empty) report.
  [`${A}/profile/report/overview`]: { need: 'member', stranger: [0] },
  [`${A}/profile/report/export`]: { need: 'member', stranger: [0] },
  [`${A}/agent/chat`]: { need: 'private' },
  [`${A}/agent/conversation/list`]: { need: 'member', privateTo: 'creator' },
  [`${A}/agent/conversation/messages`]: { need: 'private' },
  [`${A}/agent/conversation/rename`]: { need: 'private' },
  [`${A}/agent/conversation/delete`]: { need: 'private' },
  // Share pages: the code is public, a conversation is the visitor's own.
  [`${A}/share/info`]: { need: 'public' },
  [`${A}/share/messages`]: { need: 'public' },
  [`${A}/share/chat`]: { need: 'public' },
  // A stranger's own key with team A's agent as `model`: OpenAI's model_not_found (HTTP 404).
  '/v1/chat/completions': { need: 'api_key' },

  // Workflows (docs/workflows.md): another team's ids answer the workflow catalogue's not-found codes.
  [`${A}/workflow/group/list`]: { need: 'member' },
  [`${A}/workflow/group/create`]: { need: 'member' },
  [`${A}/workflow/group/rename`]: { need: 'own', stranger: [WORKFLOW_GROUP_NOT_FOUND] },
  [`${A}/workflow/group/delete`]: { need: 'own', stranger: [WORKFLOW_GROUP_NOT_FOUND] },
  // A filter by another team's group matches nothing of the caller's.
  [`${A}/workflow/list`]: { need: 'member', stranger: [0] },
  [`${A}/workflow/create`]: { need: 'member', stranger: [WORKFLOW_GROUP_NOT_FOUND, WORKFLOW_TEMPLATE_NOT_FOUND] },
  [`${A}/workflow/detail`]: { need: 'member', stranger: [WORKFLOW_NOT_FOUND] },
  [`${A}/workflow/update`]: { need: 'own', stranger: [WORKFLOW_NOT_FOUND] },
  [`${A}/workflow/delete`]: { need: 'own', stranger: [WORKFLOW_NOT_FOUND] },
  [`${A}/workflow/draft/save`]: { need: 'own', stranger: [WORKFLOW_NOT_FOUND] },
  [`${A}/workflow/publish`]: { need: 'own', stranger: [WORKFLOW_NOT_FOUND] },
  [`${A}/workflow/effective/set`]: { need: 'own', stranger: [WORKFLOW_NOT_FOUND] },
  // The workflow's creator or an admin; anyone else gets the lock's own refusal.
  [`${A}/workflow/lock`]: { need: 'own', stranger: [WORKFLOW_NOT_FOUND], member: WORKFLOW_LOCK_FORBIDDEN },
  [`${A}/workflow/version/list`]: { need: 'member', stranger: [WORKFLOW_NOT_FOUND] },
  [`${A}/workflow/version/detail`]: { need: 'member', stranger: [WORKFLOW_NOT_FOUND] },
  [`${A}/workflow/version/restore`]: { need: 'own', stranger: [WORKFLOW_NOT_FOUND] },
  [`${A}/workflow/duplicate`]: { need: 'member', stranger: [WORKFLOW_NOT_FOUND] },
  [`${A}/workflow/template/list`]: { need: 'member' },
  [`${A}/workflow/template/save`]: { need: 'member', stranger: [WORKFLOW_NOT_FOUND] },
  [`${A}/workflow/template/delete`]: { need: 'own', stranger: [WORKFLOW_TEMPLATE_NOT_FOUND] },
  [`${A}/workflow/export`]: { need: 'member', stranger: [WORKFLOW_NOT_FOUND] },
  [`${A}/workflow/import`]: { need: 'member', stranger: [WORKFLOW_GROUP_NOT_FOUND, WORKFLOW_IMPORT_INVALID] },
  // Runs (docs/workflow-runs.md): any member runs and reads them; cancelling is for who started the run or an admin.
  [`${A}/workflow/run`]: { need: 'member', stranger: [WORKFLOW_NOT_FOUND] },
  [`${A}/workflow/run/blocking`]: { need: 'member', stranger: [WORKFLOW_NOT_FOUND] },
  [`${A}/workflow/run/events`]: { need: 'member', stranger: [WORKFLOW_RUN_NOT_FOUND] },
  [`${A}/workflow/run/cancel`]: { need: 'own', stranger: [WORKFLOW_RUN_NOT_FOUND] },
  [`${A}/workflow/run/list`]: { need: 'member', stranger: [WORKFLOW_NOT_FOUND] },
  [`${A}/workflow/run/detail`]: { need: 'member', stranger: [WORKFLOW_RUN_NOT_FOUND] },
  [`${A}/workflow/node/run`]: { need: 'member', stranger: [WORKFLOW_NOT_FOUND] },
  // API keys, webhook and schedule (docs/workflow-triggers.md): members see them, who may edit the
  // workflow changes them. The public routes they open (/v1/workflows/run, /hooks/workflows/…) are
  // not envelope routes and have their own tests (triggers.test.ts).
  [`${A}/workflow/api_key/create`]: { need: 'own', stranger: [WORKFLOW_NOT_FOUND] },
  [`${A}/workflow/api_key/list`]: { need: 'member', stranger: [WORKFLOW_NOT_FOUND] },
  [`${A}/workflow/api_key/revoke`]: { need: 'own' },
  [`${A}/workflow/webhook/get`]: { need: 'member', stranger: [WORKFLOW_NOT_FOUND] },
  [`${A}/workflow/webhook/set`]: { need: 'own', stranger: [WORKFLOW_NOT_FOUND] },
  [`${A}/workflow/webhook/rotate`]: { need: 'own', stranger: [WORKFLOW_NOT_FOUND] },
  [`${A}/workflow/schedule/get`]: { need: 'member', stranger: [WORKFLOW_NOT_FOUND] },
  [`${A}/workflow/schedule/set`]: { need: 'own', stranger: [WORKFLOW_NOT_FOUND] },
  [`${A}/workflow/schedule/preview`]: { need: 'member' },

  [`${A}/custom_business/create`]: { need: 'member' },
  [`${A}/custom_business/list`]: { need: 'member' },
  [`${A}/custom_business/get`]: { need: 'member' },
  [`${A}/custom_business/cancel`]: { need: 'own' },
  [`${A}/custom_business/accept`]: { need: 'own' },
  [`${A}/custom_business/attachment`]: { need: 'member' },
  [`${A}/custom_business/attachment/download`]: { need: 'member' },
  // Operators need no role in a team; everyone else is refused, whatever the id.
  [`${A}/custom_business/operator/list`]: { need: 'operator', stranger: [FORBIDDEN] },
  [`${A}/custom_business/operator/get`]: { need: 'operator', stranger: [FORBIDDEN] },
  [`${A}/custom_business/operator/update_status`]: { need: 'operator', stranger: [FORBIDDEN] },

  // Media libraries (docs/media.md): media.create for everyone, media.edit / media.delete on
  // what one created (creator and admins: everything).
  [`${A}/media/group/list`]: { need: 'member' },
  [`${A}/media/group/create`]: { need: 'member' },
  [`${A}/media/group/rename`]: { need: 'own' },
  [`${A}/media/group/delete`]: { need: 'own' },
  [`${A}/media/library/list`]: { need: 'member' },
  [`${A}/media/library/get`]: { need: 'member' },
  [`${A}/media/library/create`]: { need: 'member' },
  [`${A}/media/library/update`]: { need: 'own' },
  [`${A}/media/library/move`]: { need: 'own' },
  [`${A}/media/library/delete`]: { need: 'own' },
  [`${A}/media/item/list`]: { need: 'member' },
  [`${A}/media/item/get`]: { need: 'member' },
  [`${A}/media/item/url`]: { need: 'member' },
  [`${A}/media/item/update`]: { need: 'own' },
  [`${A}/media/item/move`]: { need: 'own' },
  [`${A}/media/item/delete`]: { need: 'own' },
  [`${A}/media/item/restore`]: { need: 'own' },
  [`${A}/media/item/purge`]: { need: 'own' },
  [`${A}/media/item/aux_image`]: { need: 'own' },
  [`${A}/media/item/aux_image/clear`]: { need: 'own' },
  [`${A}/media/item/reprocess`]: { need: 'own' },
  [`${A}/media/usage`]: { need: 'member' },
  // The MCP server page (docs/mcp.md): members look, `mcp.manage` (creator and admins) changes.
  [`${A}/mcp/settings/get`]: { need: 'member' },
  [`${A}/mcp/settings/set`]: { need: 'authority' },
  [`${A}/mcp/token/create`]: { need: 'authority' },
  [`${A}/mcp/token/list`]: { need: 'member' },
  [`${A}/mcp/token/revoke`]: { need: 'authority' },
  [`${A}/mcp/tool/candidates`]: { need: 'member' },
  [`${A}/mcp/tool/add`]: { need: 'authority' },
  [`${A}/mcp/tool/update`]: { need: 'authority' },
  [`${A}/mcp/tool/remove`]: { need: 'authority' },
  [`${A}/mcp/tool/list`]: { need: 'member' },
  [`${A}/mcp/call/list`]: { need: 'member' },
  // External MCP servers (docs/mcp.md): members list them and read their tools; the rest is `mcp.manage`.
  [`${A}/mcp/external/list`]: { need: 'member' },
  [`${A}/mcp/external/add`]: { need: 'authority' },
  [`${A}/mcp/external/update`]: { need: 'authority' },
  [`${A}/mcp/external/remove`]: { need: 'authority' },
  [`${A}/mcp/external/refresh`]: { need: 'authority' },
  [`${A}/mcp/external/tools`]: { need: 'member' },
  [`${A}/mcp/external/try`]: { need: 'authority' },

  // Billing (docs/billing.md): every member sees the balance and their own fees; recharging and
  // the records are the authority's. Another team's order reads as a missing one.
  [`${A}/billing/summary`]: { need: 'member' },
  [`${A}/billing/live`]: { need: 'member' },
  [`${A}/billing/recharge/create`]: { need: 'authority' },
  [`${A}/billing/recharge/get`]: { need: 'authority', stranger: [RECHARGE_ORDER_NOT_FOUND] },
  [`${A}/billing/recharge/cancel`]: { need: 'authority', stranger: [RECHARGE_ORDER_NOT_FOUND] },
  [`${A}/billing/recharge/list`]: { need: 'authority' },
  [`${A}/billing/ledger/list`]: { need: 'authority' },
  [`${A}/billing/settings/update`]: { need: 'authority' },
  // Filtering by another team's member or agent matches nothing of the caller's.
  [`${A}/billing/usage/list`]: { need: 'member', stranger: [0] },
  [`${A}/billing/usage/daily`]: { need: 'member', stranger: [0] },
  [`${A}/billing/usage/export`]: { need: 'member', stranger: [0] },
  [`${A}/billing/platform_model/list`]: { need: 'member' },
  // The dev cashier's order number is the QR code a payer holds (it is not an id slot).
  [`${A}/billing/dev-cashier/get`]: { need: 'public' },
  [`${A}/billing/dev-cashier/pay`]: { need: 'public' },
  [`${A}/billing/operator/platform_model/create`]: { need: 'operator', stranger: [FORBIDDEN] },
  [`${A}/billing/operator/platform_model/update`]: { need: 'operator', stranger: [FORBIDDEN] },
  [`${A}/billing/operator/lookup`]: { need: 'operator', stranger: [FORBIDDEN] },
  [`${A}/billing/operator/refund`]: { need: 'operator', stranger: [FORBIDDEN] },
  [`${A}/billing/operator/adjust`]: { need: 'operator', stranger: [FORBIDDEN] },
};

/** What team A's member gets on a route that needs more than a member, against the creator's objects. */
export function memberRefusal(need: Need): number | null {
  if (need === 'own' || need === 'authority' || need === 'creator' || need === 'operator') return FORBIDDEN;
  if (need === 'private') return NOT_FOUND;
  return null;
}

export const STRANGER_DEFAULT = [NOT_FOUND];
