import {
  agentRoutes,
  inviteRoutes,
  knowledgeRoutes,
  mcpExternalRoutes,
  mcpRoutes,
  modelKeyRoutes,
  teamRoutes,
  type WorkflowGraphInput,
  workflowRoutes,
  workflowRunRoutes,
} from '@athena/contract';
import { startFakeOpenAI } from '@athena/fake-openai';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from '../support/api.ts';
import {
  baseUrl,
  chooseOption,
  clickWhenSettled,
  launchChromium,
  newContext,
  screenshot,
  settled,
} from '../support/browser.ts';
import { apiToken, TEST_CODE } from '../support/session.ts';

const CREATOR_PHONE = '13800000017';
const MEMBER_PHONE = '13800000170';
const BASE_NAME = '海岛知识';
const PROTOCOL = '2025-06-18';

interface RpcAnswer {
  result?: Record<string, unknown> & { tools?: { name: string; description: string }[] };
  error?: { code: number; message: string };
}

/** One JSON-RPC request to the MCP endpoint, as a client sends it; the answer may be an event stream. */
async function rpc(url: string, token: string, id: number, method: string, params: object = {}): Promise<RpcAnswer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': PROTOCOL,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  const messages = (res.headers.get('content-type') ?? '').includes('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => JSON.parse(line.slice(5)) as RpcAnswer & { id?: number })
    : [JSON.parse(text) as RpcAnswer & { id?: number }];
  const answer = messages.find((message) => message.id === id);
  expect(answer, text).toBeTruthy();
  return answer as RpcAnswer;
}

const openPlugin = async (page: Page, token: string, spaceId: string) => {
  await page.goto(`/plugin?token=${token}&spaceId=${spaceId}`);
  await page.getByTestId('mcp-server-card').waitFor();
};

describe('MCP server page', () => {
  let browser: Browser;
  let admin: string;
  let member: string;
  let teamId: string;
  let secret = '';

  beforeAll(async () => {
    browser = await launchChromium();
    admin = await apiToken(CREATOR_PHONE, TEST_CODE);
    const team = await callApi(teamRoutes.create, { name: 'MCP 团队' }, { token: admin });
    teamId = team.id;
    const headers = { token: admin, 'space-id': teamId };
    // Full text only: the knowledge tool needs no embedding model.
    await callApi(knowledgeRoutes.create, { name: BASE_NAME, embedding_model_key_id: null }, headers);
    const invite = await callApi(teamRoutes.inviteCreate, {}, headers);
    member = await apiToken(MEMBER_PHONE, TEST_CODE);
    await callApi(inviteRoutes.accept, { code: invite.code }, { token: member });
  });
  afterAll(() => browser.close());

  it('lets an admin turn the server on, create a token, expose and rename a tool, and copy a snippet', async () => {
    const page = await (await newContext(browser, 'zh-CN')).newPage();
    await openPlugin(page, admin, teamId);
    await page.getByTestId('mcp-status').getByText('已关闭').waitFor();
    await page.getByTestId('mcp-tools').getByText('还没有工具').waitFor();
    await screenshot(page, 'mcp-empty-zh-CN');

    await page.getByTestId('mcp-switch').click();
    await page.getByTestId('mcp-status').getByText('已开启').waitFor();
    expect(await page.getByTestId('mcp-endpoint').inputValue()).toBe(`${baseUrl()}/mcp/${teamId}`);

    // A token, shown once.
    await page.getByTestId('mcp-tab-tokens').click();
    await page.getByTestId('mcp-token-create').click();
    await page.getByTestId('mcp-token-name').fill('Cursor – 小李');
    await chooseOption(page, page.getByTestId('mcp-token-expiry'), '30 天');
    await clickWhenSettled(page, 'mcp-token-create-ok');
    await page.getByTestId('mcp-token-created').waitFor();
    secret = await page.getByTestId('mcp-token-secret').inputValue();
    expect(secret).toMatch(/^athmcp_/);
    await screenshot(page, 'mcp-token-once-zh-CN');
    await clickWhenSettled(page, 'mcp-token-done');
    await page.getByTestId('mcp-token-created').waitFor({ state: 'detached' });
    const row = page.getByTestId('mcp-token-row-Cursor – 小李');
    await row.getByText('有效').waitFor();
    expect(await page.content()).not.toContain(secret);

    // A second token, revoked after confirming.
    await page.getByTestId('mcp-token-create').click();
    await page.getByTestId('mcp-token-name').fill('旧令牌');
    await clickWhenSettled(page, 'mcp-token-create-ok');
    await clickWhenSettled(page, 'mcp-token-done');
    const old = page.getByTestId('mcp-token-row-旧令牌');
    await old.getByTestId('mcp-token-revoke').click();
    await clickWhenSettled(page, 'mcp-token-revoke-ok');
    await old.getByText('已吊销').waitFor();
    await screenshot(page, 'mcp-tokens-zh-CN');

    // The knowledge base as a tool: the name rule is checked before the server is asked.
    await page.getByTestId('mcp-tab-tools').click();
    await page.getByTestId('mcp-tool-add').click();
    await chooseOption(page, page.getByTestId('mcp-tool-target'), BASE_NAME);
    await expect.poll(() => page.getByTestId('mcp-tool-name').inputValue()).toMatch(/^knowledge_/);
    await page.getByTestId('mcp-tool-name').fill('海岛 facts');
    await page.getByText('只能用英文字母、数字、_ 和 -，最多 64 个字符。').waitFor();
    await page.getByTestId('mcp-tool-name').fill('island_facts');
    await page.getByTestId('mcp-tool-description').fill('海岛的资料：地理、气候和交通。');
    await screenshot(page, 'mcp-tool-add-zh-CN');
    await clickWhenSettled(page, 'mcp-tool-save');
    await page.getByTestId('mcp-tool-row-island_facts').waitFor();

    await page.getByTestId('mcp-tool-row-island_facts').getByTestId('mcp-tool-edit').click();
    await page.getByTestId('mcp-tool-name').fill('island_kb');
    await clickWhenSettled(page, 'mcp-tool-save');
    const tool = page.getByTestId('mcp-tool-row-island_kb');
    await tool.waitFor();
    await tool.locator('.ant-table-row-expand-icon').click();
    await page.getByTestId('mcp-tool-schema').getByText('query').first().waitFor();
    await screenshot(page, 'mcp-tools-zh-CN');

    // The snippets, with the new token filled in, copied.
    await page.getByTestId('mcp-tab-connect').click();
    expect(await page.getByTestId('mcp-snippet-cherryStudio').textContent()).toContain('<YOUR_TOKEN>');
    // The revoked token is never offered; the one still active is.
    await page.getByTestId('mcp-snippets-fill').getByText('Cursor – 小李').waitFor();
    await page.getByTestId('mcp-snippets-fill-switch').click();
    await page.getByTestId('mcp-snippet-tab-cursor').click();
    const cursor = JSON.parse((await page.getByTestId('mcp-snippet-cursor').textContent()) ?? '');
    expect(cursor).toEqual({
      mcpServers: { athena: { url: `${baseUrl()}/mcp/${teamId}`, headers: { Authorization: `Bearer ${secret}` } } },
    });
    await page.getByTestId('mcp-snippet-copy-cursor').click();
    await page.getByText('已复制').first().waitFor();
    await screenshot(page, 'mcp-connect-zh-CN');
  });

  it('answers a client with that token, and the call shows in the log', async () => {
    expect(secret).toMatch(/^athmcp_/);
    const url = `${baseUrl()}/mcp/${teamId}`;
    const init = await rpc(url, secret, 1, 'initialize', {
      protocolVersion: PROTOCOL,
      capabilities: {},
      clientInfo: { name: 'e2e', version: '1.0.0' },
    });
    expect(init.result?.serverInfo).toBeTruthy();
    const list = await rpc(url, secret, 2, 'tools/list');
    const tool = list.result?.tools?.find((item) => item.name === 'island_kb');
    expect(tool?.description).toBe('海岛的资料：地理、气候和交通。');
    const call = await rpc(url, secret, 3, 'tools/call', { name: 'island_kb', arguments: { query: '气候' } });
    expect(call.error).toBeUndefined();
    expect(call.result?.isError ?? false).toBe(false);

    const page = await (await newContext(browser, 'zh-CN')).newPage();
    await page.goto(`/plugin?token=${admin}&spaceId=${teamId}&tab=calls`);
    const logged = page.getByTestId('mcp-call-row').first();
    await logged.getByText('island_kb').waitFor();
    await logged.getByText('Cursor – 小李').waitFor();
    await logged.getByTestId('mcp-call-ok').waitFor();
    await page.getByTestId('mcp-usage').getByText('调用 1 次').waitFor();
    await screenshot(page, 'mcp-calls-zh-CN');

    // A tool whose base was deleted stays listed, with the reason clients no longer see it.
    const headers = { token: admin, 'space-id': teamId };
    const gone = await callApi(knowledgeRoutes.create, { name: '旧资料', embedding_model_key_id: null }, headers);
    await callApi(mcpRoutes.toolAdd, { kind: 'knowledge', target_id: gone.id, name: 'old_notes' }, headers);
    await callApi(knowledgeRoutes.delete, { id: gone.id }, headers);
    const after = await rpc(url, secret, 4, 'tools/list');
    expect(after.result?.tools?.map((item) => item.name)).toEqual(['island_kb']);

    const en = await (await newContext(browser, 'en')).newPage();
    await en.goto(`/plugin?token=${admin}&spaceId=${teamId}`);
    await en.getByTestId('mcp-status').getByText('On').waitFor();
    await en.getByTestId('mcp-tool-row-island_kb').getByText('Calls: 1').waitFor();
    await en.getByTestId('mcp-tool-row-old_notes').getByTestId('mcp-tool-unavailable').waitFor();
    await screenshot(en, 'mcp-tools-en');
    await en.getByTestId('mcp-tab-connect').click();
    await en.getByTestId('mcp-snippet-tab-vscode').click();
    await en.getByTestId('mcp-snippet-vscode').waitFor();
    await screenshot(en, 'mcp-connect-en');
  });

  it('shows a member the page read-only', async () => {
    const page = await (await newContext(browser, 'zh-TW')).newPage();
    await openPlugin(page, member, teamId);
    await page.getByTestId('mcp-readonly-note').waitFor();
    expect(await page.getByTestId('mcp-switch').isDisabled()).toBe(true);
    await page.getByTestId('mcp-tool-row-island_kb').waitFor();
    expect(await page.getByTestId('mcp-tool-add').count()).toBe(0);
    expect(await page.getByTestId('mcp-tool-edit').count()).toBe(0);
    await screenshot(page, 'mcp-member-zh-TW');
    await page.getByTestId('mcp-tab-tokens').click();
    await page.getByTestId('mcp-token-row-Cursor – 小李').waitFor();
    expect(await page.getByTestId('mcp-token-create').count()).toBe(0);
    expect(await page.getByTestId('mcp-token-revoke').count()).toBe(0);
    await screenshot(page, 'mcp-member-tokens-zh-TW');
  });

  it('adds an external server, lists and tries its tools, and a workflow node calls one', async () => {
    // The external server is this team's own MCP server, reached over loopback like any other
    // (this installation lets MCP servers sit on private addresses).
    const url = `${baseUrl()}/mcp/${teamId}`;
    const page = await (await newContext(browser, 'zh-CN')).newPage();
    await page.goto(`/plugin?token=${admin}&spaceId=${teamId}&tab=external`);
    await page.getByTestId('mcp-external-add').click();
    await page.getByTestId('mcp-external-name').fill('自家知识');
    await page.getByTestId('mcp-external-url').fill(url);
    await page.getByTestId('mcp-external-header-add').click();
    await page.getByTestId('mcp-external-header-name-0').fill('Authorization');
    await page.getByTestId('mcp-external-header-value-0').fill(`Bearer ${secret}`);
    await clickWhenSettled(page, 'mcp-external-save');
    const row = page.getByTestId('mcp-external-row-自家知识');
    await row.waitFor();
    await row.getByTestId('mcp-external-refresh').click();
    await expect.poll(() => row.getByTestId('mcp-external-status').textContent()).toContain('1');
    // A refresh opens the server's row on its tools.
    const tools = page.getByTestId('mcp-external-tools-自家知识');
    // Opened once the row's own opening has settled (a click during it was lost on a loaded run).
    const header = tools.locator('.ant-collapse-header').filter({ hasText: 'island_kb' });
    const tryArguments = page.getByTestId('mcp-external-try-arguments');
    await header.waitFor();
    await settled(page);
    await header.click();
    await tryArguments.waitFor({ timeout: 5_000 }).catch(async () => {
      await settled(page);
      if (!(await tryArguments.isVisible())) await header.click();
    });
    await tryArguments.fill('{"query": "气候"}');
    await page.getByTestId('mcp-external-try-run').click();
    await page.getByTestId('mcp-external-try-result').waitFor();
    await screenshot(page, 'mcp-external-zh-CN');

    // A workflow calls the tool through the MCP tool node, its argument from the run's input.
    const headers = { token: admin, 'space-id': teamId };
    const server = (await callApi(mcpExternalRoutes.list, {}, headers)).items[0];
    const flow = await callApi(workflowRoutes.create, { name: '查资料' }, headers);
    const graph = {
      nodes: [
        { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { inputs: [{ name: 'q', type: 'text' }] } },
        {
          id: 'ask',
          type: 'mcp_tool',
          title: '海岛资料',
          position: { x: 320, y: 0 },
          data: { server_id: server.id, tool: 'island_kb', arguments: [{ name: 'query', value: '{{#start.q#}}' }] },
        },
        {
          id: 'end',
          type: 'end',
          position: { x: 640, y: 0 },
          data: { outputs: [{ name: 'found', selector: ['ask', 'text'] }] },
        },
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'ask' },
        { id: 'e2', source: 'ask', target: 'end' },
      ],
    } as WorkflowGraphInput;
    await callApi(workflowRoutes.draftSave, { id: flow.id, graph, base_revision: flow.draft_revision }, headers);
    const summary = await callApi(
      workflowRunRoutes.runBlocking,
      { workflow_id: flow.id, inputs: { q: '交通' } },
      headers,
    );
    expect(summary.result, JSON.stringify(summary.failure)).toBe('succeeded');

    // The node's panel names the server and tool and lists the tool's arguments.
    const editor = await (await newContext(browser, 'en')).newPage();
    await editor.goto(`/ai-workflows/${flow.id}?token=${admin}&spaceId=${teamId}`);
    await editor.getByTestId('wf-node-ask').click();
    await editor.getByTestId('wf-mcp-argument').first().getByText('query').waitFor();
    await editor.getByTestId('wf-field-mcp-tool').getByText('island_kb').waitFor();
    await screenshot(editor, 'mcp-workflow-node-en');
  });

  it('lets an agent call a tool of an external server, and shows the call as a step of its answer', async () => {
    const openai = await startFakeOpenAI();
    try {
      const headers = { token: admin, 'space-id': teamId };
      await callApi(
        modelKeyRoutes.create,
        { model_name: '测试模型', version: 'fake-chat', base_url: openai.url, api_key: openai.apiKey, purpose: 'chat' },
        headers,
      );
      // A workflow answering for a city, exposed on the team's server, read by the external server.
      const flow = await callApi(workflowRoutes.create, { name: '城市天气' }, headers);
      const graph = {
        nodes: [
          { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { inputs: [{ name: 'city', type: 'text' }] } },
          {
            id: 'end',
            type: 'end',
            position: { x: 320, y: 0 },
            data: { outputs: [{ name: 'forecast_for', selector: ['start', 'city'] }] },
          },
        ],
        edges: [{ id: 'e1', source: 'start', target: 'end' }],
      } as WorkflowGraphInput;
      await callApi(workflowRoutes.draftSave, { id: flow.id, graph, base_revision: flow.draft_revision }, headers);
      await callApi(workflowRoutes.publish, { id: flow.id, note: '' }, headers);
      await callApi(mcpRoutes.toolAdd, { kind: 'workflow', target_id: flow.id, name: 'city_weather' }, headers);
      const server = (await callApi(mcpExternalRoutes.list, {}, headers)).items[0];
      await callApi(mcpExternalRoutes.refresh, { id: server.id }, headers);
      const agent = await callApi(agentRoutes.create, { name: '天气助手' }, headers);

      // The author picks the tool in the agent's editor.
      const page = await (await newContext(browser, 'zh-CN')).newPage();
      await page.goto(`/agents/${agent.id}?token=${admin}&spaceId=${teamId}`);
      await page.getByTestId('agent-editor').waitFor();
      await chooseOption(page, page.getByTestId('agent-mcp-tools'), 'city_weather');
      await page.keyboard.press('Escape');
      await page.getByTestId('agent-save').click();
      await page.getByTestId('agent-editor-clean').waitFor();
      await screenshot(page, 'agent-mcp-tools-zh-CN');

      // The fake model calls the first tool it is offered for a weather question, with {"city":"Shanghai"}.
      await page.getByTestId('chat-input').fill('上海今天 weather 怎么样？');
      await page.getByTestId('chat-input').press('Enter');
      const step = page.getByTestId('chat-tool-step').first();
      await expect.poll(() => step.getAttribute('data-status'), { timeout: 20_000 }).toBe('ok');
      expect(await step.getAttribute('data-tool')).toBe('city_weather');
      await step.locator('.ant-collapse-header').click();
      await step.getByTestId('chat-tool-step-output').getByText('Shanghai', { exact: false }).waitFor();
      await page.getByText('Tool said:', { exact: false }).waitFor();
      await screenshot(page, 'agent-tool-step-zh-CN');

      // After a reload the step is still there, in English too.
      const en = await (await newContext(browser, 'en')).newPage();
      const here = new URL(page.url());
      const join = here.search ? '&' : '?';
      await en.goto(`${here.pathname}${here.search}${join}token=${admin}&spaceId=${teamId}`);
      await en.getByTestId('chat-tool-step').first().waitFor();
      await screenshot(en, 'agent-tool-step-en');
    } finally {
      await openai.close();
    }
  });
});
