import type { Language } from '@athena/contract';
import type { BuiltinTemplate } from './template-types.ts';
import { END, START } from './words.ts';

const en = {
  question: 'Question',
  llm: 'Answer',
  system: 'You are a helpful assistant. Answer clearly and briefly, in the language of the question.',
};
const words: Record<Language, typeof en> = {
  'zh-CN': {
    question: '问题',
    llm: '回答',
    system: '你是一位乐于助人的助手。请清楚、简洁地回答，使用与问题相同的语言。',
  },
  'zh-TW': {
    question: '問題',
    llm: '回答',
    system: '你是一位樂於助人的助理。請清楚、簡潔地回答，使用與問題相同的語言。',
  },
  en,
};

export const llmAnswer: BuiltinTemplate = {
  id: 'builtin-llm-answer',
  category: 'basic',
  name: { 'zh-CN': '大模型回答问题', 'zh-TW': '大模型回答問題', en: 'Answer a question with a model' },
  description: {
    'zh-CN': '输入一个问题，由大模型直接回答。最简单的起点。',
    'zh-TW': '輸入一個問題，由大模型直接回答。最簡單的起點。',
    en: 'Ask a question and a model answers it. The simplest place to start.',
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
          data: { inputs: [{ name: 'question', label: w.question, type: 'paragraph', required: true }] },
        },
        {
          id: 'llm',
          type: 'llm',
          title: w.llm,
          position: { x: 320, y: 0 },
          data: { system_prompt: w.system, user_prompt: '{{#start.question#}}' },
        },
        {
          id: 'end',
          type: 'end',
          title: END[language],
          position: { x: 640, y: 0 },
          data: { outputs: [{ name: 'answer', selector: ['llm', 'text'] }] },
        },
      ],
      edges: [
        { id: 'start-llm', source: 'start', target: 'llm' },
        { id: 'llm-end', source: 'llm', target: 'end' },
      ],
    };
  },
};
