import {
  accountRoutes,
  activationRoutes,
  agentRoutes,
  agentStreams,
  attachmentUpload,
  authRoutes,
  billingRoutes,
  chatHistoryRoutes,
  customBusinessRoutes,
  type Envelope,
  KNOWLEDGE_UPLOAD_PATH,
  knowledgeRoutes,
  mcpExternalRoutes,
  mcpRoutes,
  mediaRoutes,
  modelKeyRoutes,
  profileRoutes,
  type RouteData,
  type RouteDescriptor,
  teamRoutes,
  type WorkflowGraphInput,
  workflowRoutes,
  workflowRunRoutes,
  workflowTriggerRoutes,
} from '@athena/contract';
import type { FakeOpenAI } from '@athena/fake-openai';
import { dataOf, stream } from '../modules/agent/agent-test-helpers.ts';
import { makePng } from '../modules/custom-business/test-files.ts';
import { caller, waitForUnit } from '../modules/knowledge/knowledge-test-helpers.ts';
import { uploadSmall } from '../modules/media/media-test-helpers.ts';
import { sendIngest } from '../testing/chat-ingest.ts';
import type { TeamFixture } from '../testing/fixtures.ts';
import type { TestApp } from '../testing/test-app.ts';

/** The objects of one team, one of every kind a route takes an id of, by the name of the slot. */
export interface SeededObjects {
  teamId: string;
  creatorId: string;
  adminId: string;
  memberId: string;
  modelKey: string;
  group: string;
  knowledge: string;
  unit: string;
  segment: string;
  agent: string;
  agentPublicId: string;
  conversation: string;
  shareCode: string;
  visitorId: string;
  shareConversation: string;
  apiKeyId: string;
  apiKey: string;
  invite: string;
  inviteCode: string;
  customRequest: string;
  attachment: string;
  creatorSession: string;
  realNameToken: string;
  wechatBindCode: string;
  workflowGroup: string;
  workflow: string;
  workflowVersion: string;
  workflowTemplate: string;
  workflowRun: string;
  workflowApiKey: string;
  mcpToken: string;
  mcpTool: string;
  mcpExternal: string;
  rechargeOrder: string;
  chatConversation: string;
  chatCustomer: string;
  chatMessage: string;
  profileField: string;
  profileChange: string;
  activationTemplate: string;
  activationEvent: string;
  mediaGroup: string;
  mediaLibrary: string;
  mediaItem: string;
}

export interface SeededTeam {
  objects: SeededObjects;
  /** Names and texts that only team A's people may ever see (for the leak check). */
  secrets: string[];
}

/** Every name the seed writes carries this, so a leak is found by searching for it. */
export const SECRET = 'SecretOfTeamA';

async function ok<R extends RouteDescriptor>(
  t: TestApp,
  route: R | string,
  body: unknown,
  headers: Record<string, string>,
): Promise<RouteData<R>> {
  const result = typeof route === 'string' ? await t.call(route, body, headers) : await t.call(route, body, headers);
  if (result.body.code !== 0) {
    const path = typeof route === 'string' ? route : route.path;
    throw new Error(`seed ${path}: ${result.body.code} ${result.body.msg}`);
  }
  return result.body.data as RouteData<R>;
}

async function inject<T>(t: TestApp, url: string, headers: Record<string, string>, payload: Buffer) {
  const res = await t.app.inject({ method: 'POST', url, headers, payload });
  const body = res.json() as Envelope<T>;
  if (body.code !== 0) throw new Error(`seed ${url}: ${body.code} ${body.msg}`);
  return body.data;
}

/**
 * Creates, as team A's creator and through the real API, one object of every kind a route takes
 * an id of: a chat model key (at the fake OpenAI server), a knowledge group, base, indexed unit
 * and segment, an agent with a share link, an API key, a playground and a share-page
 * conversation, an invite, a custom-business request with an attachment, a media group, library and item, a real-name check and a
 * WeChat bind code. Needs the app's job runner (the unit is indexed for real). Build the team
 * with the name `${SECRET} team` so its name is among the secrets too.
 */
export async function seedTeam(t: TestApp, team: TeamFixture, fake: FakeOpenAI): Promise<SeededTeam> {
  const as = team.as(team.creator);
  const name = (kind: string) => `${SECRET} ${kind}`;

  const modelKey = await ok(
    t,
    modelKeyRoutes.create,
    { model_name: name('model'), version: 'fake-chat', base_url: fake.url, api_key: 'sk-fake', purpose: 'chat' },
    as,
  );
  const group = await ok(t, knowledgeRoutes.groupCreate, { name: name('group') }, as);
  const knowledge = await ok(
    t,
    knowledgeRoutes.create,
    { name: name('base'), description: name('description'), group_id: group.id, embedding_model_key_id: null },
    as,
  );
  const query = new URLSearchParams({ knowledge_id: knowledge.id, file_name: `${SECRET}.txt` });
  const unit = await inject<{ id: string }>(
    t,
    `${KNOWLEDGE_UPLOAD_PATH}?${query}`,
    { ...as, 'content-type': 'application/octet-stream' },
    Buffer.from(`${name('file')}: the refund policy lasts thirty days.\n\nShipping takes two days.`),
  );
  await ok(t, knowledgeRoutes.unitStart, { ids: [unit.id], chunking: { mode: 'auto' } }, as);
  await waitForUnit(caller(t, as), unit.id, (u) => u.status === 'indexed', 30_000);
  const segment = await ok(t, knowledgeRoutes.segmentCreate, { unit_id: unit.id, content: name('segment') }, as);

  const agent = await ok(
    t,
    agentRoutes.create,
    {
      name: name('agent'),
      system_prompt: name('prompt'),
      model_key_id: modelKey.id,
      attachments: { knowledge_ids: [knowledge.id] },
    },
    as,
  );
  const share = await ok(t, agentRoutes.share, { id: agent.id, enabled: true }, as);
  const shareCode = String(share.url).split('/').pop() ?? '';
  const apiKey = await ok(t, agentRoutes.apiKeyCreate, { agent_id: agent.id, name: name('api key') }, as);

  const chat = await stream(t, agentStreams.chat, { agent_id: agent.id, message: name('question') }, as);
  const conversation = dataOf(chat.events, 'start')?.conversation_id;
  const visitorId = `visitor-${SECRET}`;
  const shared = await stream(
    t,
    agentStreams.shareChat,
    { code: shareCode, visitor_id: visitorId, message: name('visitor question') },
    {},
  );
  const shareConversation = dataOf(shared.events, 'start')?.conversation_id;
  if (!conversation || !shareConversation) throw new Error('seed: a chat did not start');

  const invite = await ok(t, teamRoutes.inviteCreate, { max_uses: 'unlimited' }, as);
  const attachment = await inject<{ id: string }>(
    t,
    attachmentUpload.path,
    { ...as, 'content-type': 'application/octet-stream', 'x-file-name': encodeURIComponent(`${SECRET}.png`) },
    makePng(),
  );
  const request = await ok(
    t,
    customBusinessRoutes.create,
    {
      title: name('request'),
      scenario: 'customer_service',
      requirements: `${name('requirements')}: a bot that answers product questions.`,
      contact_name: name('contact'),
      contact_phone: '13912345678',
      budget_range: '10k_50k',
      attachment_ids: [attachment.id],
    },
    as,
  );
  const mediaGroup = await ok(t, mediaRoutes.groupCreate, { name: name('media group') }, as);
  const mediaLibrary = await ok(
    t,
    mediaRoutes.libraryCreate,
    { name: name('media library'), description: name('media description'), group_id: mediaGroup.id },
    as,
  );
  const mediaItem = await uploadSmall(t, as, mediaLibrary.id, `${SECRET}.png`, makePng());
  // Its preview now, not by the job in the middle of a test (the snapshots would see it change).
  await t.app.modules.media.previews.process(mediaItem);
  await ok(t, mediaRoutes.itemUpdate, { id: mediaItem, description: name('media item') }, as);
  const sessions = await ok(t, accountRoutes.sessions, {}, { token: team.creator });
  const creatorSession = sessions.items.find((s) => s.current)?.id ?? '';
  const realName = await ok(
    t,
    accountRoutes.realNameStart,
    { name: '张三丰', id_number: '11010519491231002X' },
    { token: team.creator },
  );
  const wechatBind = await ok(t, accountRoutes.wechatBindQr, {}, { token: team.creator });
  // Scanned but not yet exchanged: the state in which someone else's exchange would do harm.
  await ok(t, authRoutes.devWechatScan, { code: wechatBind.code }, {});

  const workflowGroup = await ok(t, workflowRoutes.groupCreate, { name: name('workflow group') }, as);
  const workflow = await ok(
    t,
    workflowRoutes.create,
    { name: name('workflow'), description: name('workflow description'), group_id: workflowGroup.id },
    as,
  );
  const graph: WorkflowGraphInput = {
    nodes: [
      { id: 'start', type: 'start', data: { inputs: [] } },
      { id: 'answer', type: 'answer', data: { text: name('answer') } },
    ],
    edges: [{ id: 'start-answer', source: 'start', target: 'answer' }],
  };
  await ok(t, workflowRoutes.draftSave, { id: workflow.id, graph, base_revision: 0 }, as);
  const workflowVersion = await ok(t, workflowRoutes.publish, { id: workflow.id, note: name('note') }, as);
  const workflowTemplate = await ok(
    t,
    workflowRoutes.templateSave,
    { workflow_id: workflow.id, name: name('template') },
    as,
  );
  const workflowRun = await ok(t, workflowRunRoutes.runBlocking, { workflow_id: workflow.id, inputs: {} }, as);
  const workflowKey = await ok(
    t,
    workflowTriggerRoutes.apiKeyCreate,
    { workflow_id: workflow.id, name: name('key') },
    as,
  );

  await ok(t, mcpRoutes.settingsSet, { enabled: true }, as);
  const mcpToken = await ok(t, mcpRoutes.tokenCreate, { name: name('mcp token') }, as);
  const mcpTool = await ok(
    t,
    mcpRoutes.toolAdd,
    { kind: 'knowledge', target_id: knowledge.id, description: name('tool') },
    as,
  );
  // Never connected here: adding only stores it (its header value must never be answered).
  const mcpExternal = await ok(
    t,
    mcpExternalRoutes.add,
    {
      name: name('mcp server'),
      url: `${fake.url}/mcp`,
      transport: 'streamable_http',
      headers: [{ name: 'Authorization', value: `Bearer ${name('header')}` }],
    },
    as,
  );
  const chatHistory = await seedChat(t, as, name);
  const profile = await seedProfile(t, as, name, chatHistory.chatCustomer);
  const activation = await seedActivation(t, as, name, chatHistory.chatCustomer);
  // A paid recharge (through the dev cashier) and one still waiting, so there are records to guard.
  const paidOrder = await ok(t, billingRoutes.rechargeCreate, { amount: 1_000, channel: 'dev' }, as);
  await ok(t, billingRoutes.devCashierPay, { order_no: paidOrder.order_no }, {});
  const rechargeOrder = await ok(t, billingRoutes.rechargeCreate, { amount: 500, channel: 'dev' }, as);

  const objects: SeededObjects = {
    teamId: team.teamId,
    creatorId: team.ids.creator,
    adminId: team.ids.admin,
    memberId: team.ids.member,
    modelKey: modelKey.id,
    group: group.id,
    knowledge: knowledge.id,
    unit: unit.id,
    segment: segment.id,
    agent: agent.id,
    agentPublicId: agent.public_id,
    conversation,
    shareCode,
    visitorId,
    shareConversation,
    apiKeyId: apiKey.id,
    apiKey: apiKey.key,
    invite: invite.id,
    inviteCode: invite.code,
    customRequest: request.id,
    attachment: attachment.id,
    creatorSession,
    realNameToken: realName.verify_url.split('/').pop() ?? '',
    wechatBindCode: wechatBind.code,
    workflowGroup: workflowGroup.id,
    workflow: workflow.id,
    workflowVersion: workflowVersion.id,
    workflowTemplate: workflowTemplate.id,
    workflowRun: workflowRun.run_id,
    workflowApiKey: workflowKey.id,
    mcpToken: mcpToken.id,
    mcpTool: mcpTool.id,
    mcpExternal: mcpExternal.id,
    rechargeOrder: rechargeOrder.id,
    mediaGroup: mediaGroup.id,
    mediaLibrary: mediaLibrary.id,
    mediaItem,
    ...chatHistory,
    ...profile,
    ...activation,
  };
  // Ids a stranger must never see (chat ids are small numbers: their texts carry SECRET instead); the codes and keys that are capabilities are checked separately.
  const secretIds = [
    objects.modelKey,
    objects.group,
    objects.knowledge,
    objects.unit,
    objects.segment,
    objects.agent,
    objects.conversation,
    objects.apiKeyId,
    objects.apiKey,
    objects.invite,
    objects.inviteCode,
    objects.customRequest,
    objects.rechargeOrder,
    objects.attachment,
    objects.creatorSession,
    objects.realNameToken,
    objects.workflowGroup,
    objects.workflow,
    objects.workflowVersion,
    objects.workflowTemplate,
    objects.workflowRun,
    objects.workflowApiKey,
    objects.mcpToken,
    objects.mcpTool,
    mcpToken.token,
    objects.mcpExternal,
    objects.mediaGroup,
    objects.mediaLibrary,
    objects.mediaItem,
    objects.profileField,
    objects.activationTemplate,
    objects.activationEvent,
  ];
  return { objects, secrets: [SECRET, ...secretIds] };
}

/** A conversation of the default scene with a customer and two messages, pushed through the signed ingest API. */
async function seedChat(t: TestApp, as: Record<string, string>, name: (kind: string) => string) {
  const endpoint = await ok(t, chatHistoryRoutes.ingestRotate, {}, as);
  const message = (id: string, content: string) => ({
    msg_id: name(id),
    conversation: { id: name('conversation'), chat_type: 'private' },
    customer: { id: name('customer id'), name: name('customer') },
    send_type: 'user',
    kind: 11041,
    content,
    sent_at: Date.now(),
  });
  const raw = JSON.stringify({ messages: [message('m1', name('message')), message('m2', name('question'))] });
  const res = await sendIngest(t, endpoint, raw);
  if (res.statusCode !== 200) throw new Error(`seed chat ingest: ${res.body}`);
  const [conversation] = (await ok(t, chatHistoryRoutes.conversationList, {}, as)).items;
  const thread = await ok(t, chatHistoryRoutes.messageList, { conversation_id: conversation.id }, as);
  return {
    chatConversation: conversation.id,
    chatCustomer: conversation.customer?.id ?? '',
    chatMessage: thread.items[0].id,
  };
}

/** A profile field of the default scene and one change: the seeded customer's value of it. */
async function seedProfile(t: TestApp, as: Record<string, string>, name: (kind: string) => string, customer: string) {
  const field = await ok(
    t,
    profileRoutes.fieldCreate,
    { name: name('field'), type: 'text', description: name('hint') },
    as,
  );
  await ok(t, profileRoutes.valueSet, { customer_id: customer, field_id: field.id, value: name('value') }, as);
  const history = await ok(t, profileRoutes.history, { customer_id: customer }, as);
  return { profileField: field.id, profileChange: history.items[0].id };
}

/** An activation template and an event for tomorrow to the seeded customer (nothing is sent while it waits). */
async function seedActivation(
  t: TestApp,
  as: Record<string, string>,
  name: (kind: string) => string,
  customer: string,
) {
  const template = await ok(
    t,
    activationRoutes.templateCreate,
    { name: name('tpl').slice(0, 30), mode: 'template', body: `{{customer_name}} ${name('activation')}` },
    as,
  );
  const event = await ok(
    t,
    activationRoutes.eventCreate,
    {
      name: name('event').slice(0, 50),
      template_id: template.id,
      audience: { customer_ids: [customer] },
      send_at: Date.now() + 86_400_000,
    },
    as,
  );
  return { activationTemplate: template.id, activationEvent: event.id };
}
