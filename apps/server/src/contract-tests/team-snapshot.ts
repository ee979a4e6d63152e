import { createHash } from 'node:crypto';
import { ATTACHMENT_DOWNLOAD_PATH } from '@athena/contract';
import type { TeamFixture } from '../testing/fixtures.ts';
import type { TestApp } from '../testing/test-app.ts';
import type { SeededObjects } from './seed-team.ts';

const A = '/api/athena/v1';
/** Fields that change by merely being read (a session's last use, a search's timing). */
const VOLATILE = new Set(['last_seen_at', 'took_ms', 'request_id']);

const stable = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(stable);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !VOLATILE.has(key))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, item]) => [key, stable(item)]),
  );
};

/**
 * Everything of team A its own people can read, as one string: every seeded object through its
 * read routes, the members, invites and audit log, and each person's account. Two equal snapshots
 * mean nothing of team A changed in between.
 */
export async function snapshotTeam(t: TestApp, team: TeamFixture, o: SeededObjects): Promise<string> {
  const creator = team.as(team.creator);
  const reads: [string, unknown, Record<string, string>][] = [
    [`${A}/agent/get`, { id: o.agent }, creator],
    [`${A}/agent/list`, {}, creator],
    [`${A}/agent/conversation/list`, { agent_id: o.agent }, creator],
    [`${A}/agent/conversation/messages`, { conversation_id: o.conversation }, creator],
    [`${A}/agent/api_key/list`, { agent_id: o.agent }, creator],
    [`${A}/agent/app/list`, {}, creator],
    [`${A}/share/messages`, { code: o.shareCode, visitor_id: o.visitorId, conversation_id: o.shareConversation }, {}],
    [`${A}/knowledge/group/list`, {}, creator],
    [`${A}/knowledge/list`, {}, creator],
    [`${A}/knowledge/unit/list`, { knowledge_id: o.knowledge }, creator],
    [`${A}/knowledge/segment/list`, { knowledge_id: o.knowledge, page_size: 100 }, creator],
    [`${A}/model_key/list`, {}, creator],
    [`${A}/team/member/list`, {}, creator],
    [`${A}/team/invite/list`, {}, creator],
    [`${A}/team/audit/list`, { page_size: 100 }, creator],
    [`${A}/space/get`, { id: o.teamId }, creator],
    [`${A}/workflow/group/list`, {}, creator],
    [`${A}/workflow/list`, {}, creator],
    [`${A}/workflow/detail`, { id: o.workflow }, creator],
    [`${A}/workflow/version/list`, { workflow_id: o.workflow }, creator],
    [`${A}/workflow/template/list`, {}, creator],
    [`${A}/workflow/run/list`, { workflow_id: o.workflow }, creator],
    [`${A}/custom_business/list`, {}, creator],
    [`${A}/custom_business/get`, { id: o.customRequest }, creator],
    [`${A}/media/group/list`, {}, creator],
    [`${A}/media/library/list`, {}, creator],
    [`${A}/media/item/list`, { library_id: o.mediaLibrary, page_size: 100 }, creator],
    [`${A}/media/item/list`, { library_id: o.mediaLibrary, trash: true, page_size: 100 }, creator],
    [`${A}/media/usage`, {}, creator],
    [`${A}/mcp/settings/get`, {}, creator],
    [`${A}/mcp/token/list`, {}, creator],
    [`${A}/mcp/tool/list`, {}, creator],
    [`${A}/mcp/call/list`, { page_size: 100 }, creator],
    [`${A}/mcp/external/list`, {}, creator],
    [`${A}/mcp/external/tools`, { id: o.mcpExternal }, creator],
    [`${A}/profile/field/list`, {}, creator],
    [`${A}/profile/customer/get`, { id: o.chatCustomer }, creator],
    [`${A}/profile/value/history`, { customer_id: o.chatCustomer, page_size: 100 }, creator],
    [`${A}/profile/extract/status`, { customer_id: o.chatCustomer }, creator],
    [`${A}/profile/activation/template/list`, {}, creator],
    [`${A}/profile/activation/event/list`, { page_size: 100 }, creator],
    [`${A}/profile/activation/send/list`, { event_id: o.activationEvent, page_size: 100 }, creator],
    [`${A}/profile/behaviour/list`, { customer_id: o.chatCustomer, page_size: 100 }, creator],
    [`${A}/profile/satisfaction/settings/get`, {}, creator],
    [`${A}/profile/satisfaction/list`, { page_size: 100 }, creator],
    [`${A}/billing/summary`, {}, creator],
    [`${A}/billing/recharge/list`, { page_size: 100 }, creator],
    [`${A}/billing/ledger/list`, { page_size: 100 }, creator],
    [`${A}/billing/usage/list`, { page_size: 100 }, creator],
  ];
  for (const token of [team.creator, team.admin, team.member]) {
    for (const path of ['/accountv2/user/info', '/accountv2/user/sessions', '/accountv2/user/realname/get']) {
      reads.push([path, {}, { token }]);
    }
    reads.push([`${A}/space/list`, {}, { token }]);
  }
  const answers: Record<string, unknown> = {};
  for (const [index, [path, body, headers]] of reads.entries()) {
    answers[`${index} ${path}`] = stable((await t.call(path, body, headers)).body);
  }
  const file = await t.app.inject({
    method: 'POST',
    url: ATTACHMENT_DOWNLOAD_PATH,
    headers: { 'content-type': 'application/json', ...creator },
    payload: JSON.stringify({ id: o.attachment }),
  });
  answers.attachment = createHash('sha256').update(file.rawPayload).digest('hex');
  return JSON.stringify(answers, null, 1);
}
