import type { Language } from '@athena/contract';
import type { BuiltinTemplate } from './template-types.ts';
import { END, START } from './words.ts';

const en = {
  question: 'Question',
  retrieve: 'Search the knowledge base',
  context: 'Number the passages',
  nothing: '(No passage was found.)',
  llm: 'Answer with citations',
  system:
    'Answer only from the numbered passages below. After each statement, cite the passage it comes from as [1], [2]. ' +
    'If the passages do not contain the answer, say that the knowledge base does not cover it; never invent one. ' +
    'Answer in the language of the question.',
  user: 'Passages:\n{{#context.output#}}\n\nQuestion: {{#start.question#}}',
};
const words: Record<Language, typeof en> = {
  'zh-CN': {
    question: '问题',
    retrieve: '检索知识库',
    context: '为段落编号',
    nothing: '（没有找到相关段落。）',
    llm: '带引用回答',
    system:
      '只根据下面编号的段落回答。每句结论后用 [1]、[2] 注明出自哪一段。' +
      '如果段落中没有答案，就说明知识库没有涉及这个问题，绝不编造。使用与问题相同的语言回答。',
    user: '段落：\n{{#context.output#}}\n\n问题：{{#start.question#}}',
  },
  'zh-TW': {
    question: '問題',
    retrieve: '檢索知識庫',
    context: '為段落編號',
    nothing: '（沒有找到相關段落。）',
    llm: '附引用回答',
    system:
      '只根據下面編號的段落回答。每句結論後用 [1]、[2] 註明出自哪一段。' +
      '如果段落中沒有答案，就說明知識庫沒有涵蓋這個問題，絕不捏造。使用與問題相同的語言回答。',
    user: '段落：\n{{#context.output#}}\n\n問題：{{#start.question#}}',
  },
  en,
};

/**
 * The knowledge base is the team's own, so the template leaves it empty: validation names it until
 * the user picks one in the retrieval node, and the description says so.
 */
export const knowledgeAnswer: BuiltinTemplate = {
  id: 'builtin-knowledge-answer',
  category: 'knowledge',
  name: { 'zh-CN': '知识库问答（附引用）', 'zh-TW': '知識庫問答（附引用）', en: 'Knowledge base Q&A with citations' },
  description: {
    'zh-CN':
      '从知识库检索相关段落，大模型只依据这些段落回答并标注出处 [1]、[2]。使用前请在“检索知识库”节点中选择你的知识库。',
    'zh-TW':
      '從知識庫檢索相關段落，大模型只依據這些段落回答並標註出處 [1]、[2]。使用前請在「檢索知識庫」節點中選擇你的知識庫。',
    en: 'Finds the relevant passages in a knowledge base; a model answers from them alone and cites each one as [1], [2]. Before use, choose your knowledge base in the "Search the knowledge base" node.',
  },
  userChoices: [{ node_id: 'retrieve', field: 'knowledge bases' }],
  graph: (language) => {
    const w = words[language];
    return {
      nodes: [
        {
          id: 'start',
          type: 'start',
          title: START[language],
          position: { x: 0, y: 0 },
          data: { inputs: [{ name: 'question', label: w.question, type: 'paragraph', required: true }] },
        },
        {
          id: 'retrieve',
          type: 'knowledge',
          title: w.retrieve,
          position: { x: 320, y: 0 },
          data: { query: ['start', 'question'], knowledge_ids: [], top_k: 5 },
        },
        {
          id: 'context',
          type: 'template',
          title: w.context,
          position: { x: 640, y: 0 },
          data: {
            variables: [{ name: 'passages', selector: ['retrieve', 'result'] }],
            template: `{% for passage in passages %}[{{ loop.index }}] {{ passage.file_name }}\n{{ passage.content }}\n\n{% else %}${w.nothing}{% endfor %}`,
          },
        },
        {
          id: 'answer',
          type: 'llm',
          title: w.llm,
          position: { x: 960, y: 0 },
          data: { system_prompt: w.system, user_prompt: w.user, temperature: 0.2 },
        },
        {
          id: 'end',
          type: 'end',
          title: END[language],
          position: { x: 1280, y: 0 },
          data: {
            outputs: [
              { name: 'answer', selector: ['answer', 'text'] },
              { name: 'sources', selector: ['retrieve', 'result'] },
            ],
          },
        },
      ],
      edges: [
        { id: 'start-retrieve', source: 'start', target: 'retrieve' },
        { id: 'retrieve-context', source: 'retrieve', target: 'context' },
        { id: 'context-answer', source: 'context', target: 'answer' },
        { id: 'answer-end', source: 'answer', target: 'end' },
      ],
    };
  },
};
