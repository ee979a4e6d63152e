import type { BuiltinTemplate } from './template-types.ts';

export const summarizePage: BuiltinTemplate = {
  id: 'builtin-summarize-page',
  category: 'content',
  name: { 'zh-CN': '总结网页', 'zh-TW': '摘要網頁', en: 'Summarise a web page' },
  description: {
    'zh-CN': '抓取一个网址的内容，再由大模型写出要点摘要。',
    'zh-TW': '擷取一個網址的內容，再由大模型寫出重點摘要。',
    en: 'Fetches a web address and has a model write a summary of its main points.',
  },
  graph: {
    nodes: [
      {
        id: 'start',
        type: 'start',
        title: 'Start',
        position: { x: 0, y: 0 },
        data: { inputs: [{ name: 'url', label: 'Web address', type: 'text', required: true }] },
      },
      {
        id: 'fetch',
        type: 'http',
        title: 'Fetch page',
        position: { x: 320, y: 0 },
        data: { method: 'GET', url: '{{#start.url#}}', timeout_ms: 20_000 },
      },
      {
        id: 'summarize',
        type: 'llm',
        title: 'Summarise',
        position: { x: 640, y: 0 },
        data: {
          system_prompt:
            'You summarise web pages. Ignore navigation, scripts and markup. Write five bullet points at most, in the language of the page.',
          user_prompt: 'Page content (HTTP {{#fetch.status_code#}}):\n\n{{#fetch.body#}}',
          temperature: 0.3,
        },
      },
      {
        id: 'end',
        type: 'end',
        title: 'End',
        position: { x: 960, y: 0 },
        data: { outputs: [{ name: 'summary', selector: ['summarize', 'text'] }] },
      },
    ],
    edges: [
      { id: 'start-fetch', source: 'start', target: 'fetch' },
      { id: 'fetch-summarize', source: 'fetch', target: 'summarize' },
      { id: 'summarize-end', source: 'summarize', target: 'end' },
    ],
  },
};
