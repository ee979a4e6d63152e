import { LANGUAGES, type Language, type WorkflowGraph, workflowGraphSchema } from '@athena/contract';
import { validateGraph } from '@athena/workflow-engine';
import { afterAll, describe, expect, it } from 'vitest';
import { checkOutputs } from '../sandbox/code-outputs.ts';
import { createSandbox } from '../sandbox/sandbox.ts';
import { BUILTIN_TEMPLATES, type BuiltinTemplate, builtinGraph, builtinInLanguage } from './index.ts';

// The built-in templates as a user gets them: every one valid in every language (apart from the
// resources only the team can choose), the same graph in each language with only the words
// changed, and its code and Jinja templates actually working in the sandbox.

const graphIn = (template: BuiltinTemplate, language: Language): WorkflowGraph =>
  workflowGraphSchema.parse(template.graph(language));

/** Every text a user reads: name, description, titles, labels, options, prompts, templates. */
const textsOf = (template: BuiltinTemplate, language: Language) =>
  [template.name[language], template.description[language], JSON.stringify(template.graph(language))].join('\n');

/** The graph with its words taken out: what must not depend on the language. */
const shapeOf = (graph: WorkflowGraph) => ({
  nodes: graph.nodes.map((node) => ({ id: node.id, type: node.type, parent_id: node.parent_id, errors: node.errors })),
  edges: graph.edges,
  settings: graph.settings,
  environment: graph.environment,
});

const CJK = /[\u3400-\u9fff]/;
// Characters that exist in one script only (taken from the templates' own texts, leaving out any
// the other script also writes): a zh-TW text with a simplified one, or the reverse, was written
// in the wrong script.
const SIMPLIFIED_ONLY =
  '问题输个简单点开乐于请洁与语结识库从检关据这并标处节选择为编号没带论说绝总网页内写负责导脚记条会议纪办贴录时决参讨么数确' +
  '阅读项应务话约对无译种运韩词换专业户气复产称传实规亲稳泼电头体给价奖过两审达环辑满轮须严谨则见动类断属还诉订货销顾们员' +
  '帮诚进汇乱诺状态团队补偿评级谢馈针联欢临广码统计签倾邮认转测购颜仓调败试响几键师绍跃闭许证该';
const TRADITIONAL_ONLY =
  '問題輸個簡單點開樂於請潔與語結識庫從檢關據這並標註處節選擇為編號沒論後說蓋絕網頁擷內寫負責導覽碼記會議紀錄辦貼時決參討麼' +
  '數確閱讀項應話約產無譯種執韓範併對詞換專業氣稱實規親穩潑電頭體價獎過兩審達迴輯滿輪須嚴謹則見動儲戶類斷屬還訴給訂貨銷顧們' +
  '員協誠懇複進彙擬訊資亂諾狀態溫團隊補償認預評條級餘謝饋針聯絡歡臨廣統計籤傾郵轉測購顏敗試幾鍵欄師紹躍閉權該';
// Mainland wording that Taiwan says differently (資料, 使用者, 網路, 程式碼, 資訊, 預設, 影片, 軟體, 文字, 專案).
const MAINLAND_TERMS = ['數據', '用戶', '網絡', '代碼', '信息', '默認', '視頻', '軟件', '文本', '項目', '質量'];

describe('built-in workflow templates', () => {
  it('are at least ten, with unique stable ids, across the categories', () => {
    expect(BUILTIN_TEMPLATES.length).toBeGreaterThanOrEqual(10);
    const ids = BUILTIN_TEMPLATES.map((template) => template.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^builtin-[a-z0-9-]+$/);
    const categories = new Set(BUILTIN_TEMPLATES.map((template) => template.category));
    expect([...categories].sort()).toEqual(['automation', 'basic', 'content', 'customer_service', 'data', 'knowledge']);
  });

  for (const template of BUILTIN_TEMPLATES) {
    describe(template.id, () => {
      it('parses and validates in every language, reporting only what the user must choose', () => {
        const expected = (template.userChoices ?? []).map((choice) => ({
          code: 'WORKFLOW_NODE_INCOMPLETE',
          node_id: choice.node_id,
          field: choice.field,
        }));
        for (const language of LANGUAGES) {
          const graph = graphIn(template, language);
          const problems = validateGraph(graph).map((problem) => ({
            code: problem.code,
            node_id: problem.node_id,
            field: problem.params.field,
          }));
          expect(problems, language).toEqual(expected);
          const nodeIds = graph.nodes.map((node) => node.id);
          expect(new Set(nodeIds).size, language).toBe(nodeIds.length);
          const edgeIds = graph.edges.map((edge) => edge.id);
          expect(new Set(edgeIds).size, language).toBe(edgeIds.length);
          // What the registry serves is the same parsed graph, in that language.
          expect(builtinGraph(template.id, language)).toEqual(graph);
          expect(builtinInLanguage(template, language)).toMatchObject({
            name: template.name[language],
            node_count: graph.nodes.length,
            builtin: true,
          });
        }
      });

      it('has the same graph in every language, only the words differ', () => {
        const [first, ...others] = LANGUAGES.map((language) => graphIn(template, language));
        for (const other of others) expect(shapeOf(other)).toEqual(shapeOf(first!));
        const [zhCN, zhTW, en] = LANGUAGES.map((language) => textsOf(template, language));
        expect(new Set([zhCN, zhTW, en]).size).toBe(3);
      });

      it('titles every node and labels every input in each language, Chinese in Chinese', () => {
        const byLanguage = Object.fromEntries(LANGUAGES.map((language) => [language, graphIn(template, language)]));
        const en = byLanguage.en!;
        for (const language of ['zh-CN', 'zh-TW'] as const) {
          const zh = byLanguage[language]!;
          zh.nodes.forEach((node, at) => {
            const english = en.nodes[at]!;
            expect(node.title, `${language} ${node.id}`).toMatch(CJK);
            expect(english.title, `en ${node.id}`).not.toMatch(CJK);
            expect(node.title).not.toBe(english.title);
            if (node.type === 'start' && english.type === 'start') {
              node.data.inputs.forEach((input, i) => {
                expect(input.label, `${language} ${input.name}`).toMatch(CJK);
                expect(english.data.inputs[i]!.label).not.toMatch(CJK);
              });
            }
          });
          expect(template.name[language]).toMatch(CJK);
          expect(template.description[language]).toMatch(CJK);
        }
        expect(template.name.en).not.toMatch(CJK);
        expect(textsOf(template, 'en')).not.toMatch(CJK);
      });

      it('writes zh-CN in simplified and zh-TW in traditional characters with Taiwan wording', () => {
        const zhCN = textsOf(template, 'zh-CN');
        const zhTW = textsOf(template, 'zh-TW');
        expect([...zhTW].filter((char) => SIMPLIFIED_ONLY.includes(char))).toEqual([]);
        expect([...zhCN].filter((char) => TRADITIONAL_ONLY.includes(char))).toEqual([]);
        expect(MAINLAND_TERMS.filter((term) => zhTW.includes(term))).toEqual([]);
      });
    });
  }
});

describe('the templates’ code and Jinja nodes, run in the sandbox', () => {
  const sandbox = createSandbox({ workers: 1, pythonWorkers: 1, memoryMb: 32, pythonMemoryMb: 256, timeoutMs: 2_000 });
  afterAll(() => sandbox.close());

  const nodeOf = (templateId: string, nodeId: string, language: Language = 'en') => {
    const template = BUILTIN_TEMPLATES.find((candidate) => candidate.id === templateId);
    const node = template && graphIn(template, language).nodes.find((candidate) => candidate.id === nodeId);
    if (!node) throw new Error(`${templateId} has no node ${nodeId}`);
    return node;
  };
  const runCode = async (templateId: string, nodeId: string, args: Record<string, unknown>) => {
    const node = nodeOf(templateId, nodeId);
    if (node.type !== 'code') throw new Error(`${nodeId} is not a code node`);
    const { value } = await sandbox.runCode(node.data.language, node.data.code, args);
    return checkOutputs(value, node.data.outputs);
  };
  const render = async (templateId: string, nodeId: string, vars: Record<string, unknown>, language?: Language) => {
    const node = nodeOf(templateId, nodeId, language);
    if (node.type !== 'template') throw new Error(`${nodeId} is not a template node`);
    // Every variable the template uses is bound on the node, so a typo in a name shows here.
    expect(Object.keys(vars).sort()).toEqual(node.data.variables.map((variable) => variable.name).sort());
    return (await sandbox.renderTemplate(node.data.template, vars)).text;
  };

  it('feedback batch: splits lines, then counts labels with failed items as unknown', async () => {
    const split = await runCode('builtin-feedback-batch', 'split', { feedback: ' Great app \r\n\n  Too slow\nok ' });
    expect(split).toEqual({ lines: ['Great app', 'Too slow', 'ok'] });
    const many = await runCode('builtin-feedback-batch', 'split', { feedback: 'x\n'.repeat(500) });
    expect((many.lines as unknown[]).length).toBe(200);

    const labels = [{ sentiment: 'positive', topic: 'app', summary: 'likes it' }, null, { sentiment: 'positive' }];
    const tally = await runCode('builtin-feedback-batch', 'tally', { lines: split.lines, labels });
    expect(tally.counts).toEqual({ positive: 2, unknown: 1 });
    expect((tally.results as unknown[])[1]).toEqual({ text: 'Too slow', sentiment: 'unknown' });
  });

  it('order extraction: lists what is missing, and survives a model that gave no JSON', async () => {
    const complete = {
      customer_name: 'Li Lei',
      phone: '138',
      address: 'Road 1',
      items: [{ name: 'Tea', quantity: 2 }],
    };
    expect(await runCode('builtin-order-extract', 'check', { order: complete })).toEqual({
      order: complete,
      missing: [],
      complete: true,
    });
    const partial = await runCode('builtin-order-extract', 'check', { order: { customer_name: 'Li', items: [] } });
    expect(partial).toMatchObject({ missing: ['phone', 'address', 'items'], complete: false });
    expect(await runCode('builtin-order-extract', 'check', { order: null })).toMatchObject({ complete: false });
  });

  it('repository brief: keeps the useful fields, and turns a refusal into facts', async () => {
    const body = JSON.stringify({
      full_name: 'octo/cat',
      description: 'A cat',
      stargazers_count: 5,
      forks_count: 1,
      open_issues_count: 0,
      language: 'TypeScript',
      license: { spdx_id: 'MIT' },
      topics: ['cats'],
      pushed_at: '2026-01-01T00:00:00Z',
      archived: false,
      owner: { login: 'octo' },
    });
    const found = await runCode('builtin-repo-brief', 'reshape', { status: 200, body });
    expect(found).toMatchObject({ found: true, facts: { name: 'octo/cat', stars: 5, license: 'MIT' } });
    expect(found.facts).not.toHaveProperty('owner');
    const missing = await runCode('builtin-repo-brief', 'reshape', { status: 404, body: '{"message":"Not Found"}' });
    expect(missing).toEqual({ found: false, facts: { found: false, error: 'GitHub answered 404: Not Found' } });
    expect(await runCode('builtin-repo-brief', 'reshape', { status: 502, body: '<html>' })).toMatchObject({
      found: false,
    });
  });

  it('knowledge Q&A: numbers the passages, and says so when there are none', async () => {
    const passages = [
      { content: 'Returns within 7 days.', file_name: 'policy.md', score: 0.9 },
      { content: 'Shipping is free.', file_name: 'faq.md', score: 0.8 },
    ];
    const text = await render('builtin-knowledge-answer', 'context', { passages });
    expect(text).toBe('[1] policy.md\nReturns within 7 days.\n\n[2] faq.md\nShipping is free.\n\n');
    expect(await render('builtin-knowledge-answer', 'context', { passages: [] }, 'zh-TW')).toBe(
      '（沒有找到相關段落。）',
    );
  });

  it('meeting minutes: the summary, decisions and action items as Markdown, "None" for an empty list', async () => {
    const text = await render('builtin-meeting-notes', 'minutes', {
      summary: '- Launch moved',
      decisions: ['Launch on 3 May'],
      action_items: [{ task: 'Tell sales', owner: 'Ann', due: 'Friday' }, { task: 'Update site' }],
    });
    expect(text).toBe(
      '## Summary\n- Launch moved\n\n## Decisions\n- Launch on 3 May\n\n## Action items\n- [ ] Tell sales — Ann (Friday)\n- [ ] Update site\n',
    );
    const empty = await render(
      'builtin-meeting-notes',
      'minutes',
      { summary: 's', decisions: null, action_items: [] },
      'zh-CN',
    );
    expect(empty).toContain('## 决定\n- 无\n');
    expect(empty).toContain('## 待办事项\n- 无\n');
  });

  it('translation: each translation under its language', async () => {
    const text = await render(
      'builtin-translate-parallel',
      'join',
      { text_1: 'Hello', text_2: 'こんにちは', text_3: '안녕' },
      'zh-CN',
    );
    expect(text).toBe('### 英语\nHello\n\n### 日语\nこんにちは\n\n### 韩语\n안녕');
  });
});
