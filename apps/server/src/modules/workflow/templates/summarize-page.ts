import type { Language } from '@athena/contract';
import type { BuiltinTemplate } from './template-types.ts';
import { END, START } from './words.ts';

const en = {
  url: 'Web address',
  fetch: 'Fetch page',
  summarize: 'Summarise',
  system:
    'You summarise web pages. Ignore navigation, scripts and markup. Write five bullet points at most, in the language of the page.',
  user: 'Page content (HTTP {{#fetch.status_code#}}):\n\n{{#fetch.body#}}',
};
const words: Record<Language, typeof en> = {
  'zh-CN': {
    url: '网址',
    fetch: '抓取网页',
    summarize: '总结要点',
    system: '你负责总结网页。忽略导航、脚本和标记，只看正文。最多写五条要点，使用网页本身的语言。',
    user: '网页内容（HTTP {{#fetch.status_code#}}）：\n\n{{#fetch.body#}}',
  },
  'zh-TW': {
    url: '網址',
    fetch: '擷取網頁',
    summarize: '摘要重點',
    system: '你負責摘要網頁。忽略導覽列、指令碼和標記，只看正文。最多寫五點重點，使用網頁本身的語言。',
    user: '網頁內容（HTTP {{#fetch.status_code#}}）：\n\n{{#fetch.body#}}',
  },
  en,
};

export const summarizePage: BuiltinTemplate = {
  id: 'builtin-summarize-page',
  category: 'content',
  name: { 'zh-CN': '总结网页', 'zh-TW': '摘要網頁', en: 'Summarise a web page' },
  description: {
    'zh-CN': '抓取一个网址的内容，再由大模型写出要点摘要。',
    'zh-TW': '擷取一個網址的內容，再由大模型寫出重點摘要。',
    en: 'Fetches a web address and has a model write a summary of its main points.',
  },
  graph: (language) => {
    const w = words[language];
    return {
      nodes: [
        {
          id: 'start',
          type: 'start',
          title: START[language],
          position: { x: 0, y: 0 },
          data: { inputs: [{ name: 'url', label: w.url, type: 'text', required: true }] },
        },
        {
          id: 'fetch',
          type: 'http',
          title: w.fetch,
          position: { x: 320, y: 0 },
          data: { method: 'GET', url: '{{#start.url#}}', timeout_ms: 20_000 },
        },
        {
          id: 'summarize',
          type: 'llm',
          title: w.summarize,
          position: { x: 640, y: 0 },
          data: { system_prompt: w.system, user_prompt: w.user, temperature: 0.3 },
        },
        {
          id: 'end',
          type: 'end',
          title: END[language],
          position: { x: 960, y: 0 },
          data: { outputs: [{ name: 'summary', selector: ['summarize', 'text'] }] },
        },
      ],
      edges: [
        { id: 'start-fetch', source: 'start', target: 'fetch' },
        { id: 'fetch-summarize', source: 'fetch', target: 'summarize' },
        { id: 'summarize-end', source: 'summarize', target: 'end' },
      ],
    };
  },
};
