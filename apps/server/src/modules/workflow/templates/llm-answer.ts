import type { BuiltinTemplate } from './template-types.ts';

export const llmAnswer: BuiltinTemplate = {
  id: 'builtin-llm-answer',
  category: 'basic',
  name: { 'zh-CN': '大模型回答问题', 'zh-TW': '大模型回答問題', en: 'Answer a question with a model' },
  description: {
    'zh-CN': '输入一个问题，由大模型直接回答。最简单的起点。',
    'zh-TW': '輸入一個問題，由大模型直接回答。最簡單的起點。',
    en: 'Ask a question and a model answers it. The simplest place to start.',
  },
  graph: {
    nodes: [
      {
        id: 'start',
        type: 'start',
        title: 'Start',
        position: { x: 0, y: 0 },
        data: { inputs: [{ name: 'question', label: 'Question', type: 'paragraph', required: true }] },
      },
      {
        id: 'llm',
        type: 'llm',
        title: 'LLM',
        position: { x: 320, y: 0 },
        data: {
          system_prompt: 'You are a helpful assistant. Answer clearly and briefly, in the language of the question.',
          user_prompt: '{{#start.question#}}',
        },
      },
      {
        id: 'end',
        type: 'end',
        title: 'End',
        position: { x: 640, y: 0 },
        data: { outputs: [{ name: 'answer', selector: ['llm', 'text'] }] },
      },
    ],
    edges: [
      { id: 'start-llm', source: 'start', target: 'llm' },
      { id: 'llm-end', source: 'llm', target: 'end' },
    ],
  },
};
