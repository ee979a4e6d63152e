import type { Language } from '@athena/contract';
import type { BuiltinTemplate } from './template-types.ts';
import { END, START } from './words.ts';

const en = {
  feedback: 'Feedback, one item per line',
  split: 'Split into lines',
  each: 'Label each line',
  label: 'Label one item',
  system:
    'You label customer feedback. Give its sentiment, the product area it is about in one or two words, and a summary of at most 15 words in the language of the feedback.',
  sentiments: ['positive', 'neutral', 'negative'],
  topic: 'The product area, in one or two words',
  summary: 'A summary of at most 15 words',
  unknown: 'unknown',
  tally: 'Count the labels',
};
const words: Record<Language, typeof en> = {
  'zh-CN': {
    feedback: '用户反馈，每行一条',
    split: '按行拆分',
    each: '逐条打标签',
    label: '给一条反馈打标签',
    system:
      '你为用户反馈打标签。给出情感倾向、涉及的产品方面（一两个词），以及不超过 30 字的摘要，摘要使用反馈本身的语言。',
    sentiments: ['正面', '中性', '负面'],
    topic: '涉及的产品方面，一两个词',
    summary: '不超过 30 字的摘要',
    unknown: '未知',
    tally: '统计标签',
  },
  'zh-TW': {
    feedback: '使用者回饋，每行一則',
    split: '按行拆分',
    each: '逐則加標籤',
    label: '為一則回饋加標籤',
    system:
      '你為使用者回饋加標籤。給出情感傾向、涉及的產品面向（一兩個詞），以及不超過 30 字的摘要，摘要使用回饋本身的語言。',
    sentiments: ['正面', '中立', '負面'],
    topic: '涉及的產品面向，一兩個詞',
    summary: '不超過 30 字的摘要',
    unknown: '未知',
    tally: '統計標籤',
  },
  en,
};

// At most 200 lines, so one paste cannot turn into thousands of model calls.
const SPLIT = `function main({ feedback }) {
  const lines = String(feedback ?? '')
    .split(/\\r?\\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  return { lines: lines.slice(0, 200) };
}`;

// A line whose labelling failed comes back as null (the iteration carries on past it).
const tally = (unknown: string) => `function main({ lines, labels }) {
  const results = lines.map((text, at) => ({ text, ...(labels[at] ?? { sentiment: ${JSON.stringify(unknown)} }) }));
  const counts = {};
  for (const result of results) counts[result.sentiment] = (counts[result.sentiment] ?? 0) + 1;
  return { results, counts };
}`;

export const feedbackBatch: BuiltinTemplate = {
  id: 'builtin-feedback-batch',
  category: 'data',
  name: { 'zh-CN': '批量分析用户反馈', 'zh-TW': '批次分析使用者回饋', en: 'Label a batch of feedback' },
  description: {
    'zh-CN':
      '贴上多条反馈（每行一条，最多 200 条）：代码节点拆分，迭代节点并行为每条标注情感、方面和摘要，最后统计各类数量。',
    'zh-TW':
      '貼上多則回饋（每行一則，最多 200 則）：程式碼節點拆分，迭代節點平行為每則標註情感、面向和摘要，最後統計各類數量。',
    en: 'Paste feedback, one item per line (200 at most): a code node splits it, an iteration labels each line in parallel with sentiment, area and summary, and the labels are counted.',
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
          data: { inputs: [{ name: 'feedback', label: w.feedback, type: 'paragraph', required: true }] },
        },
        {
          id: 'split',
          type: 'code',
          title: w.split,
          position: { x: 320, y: 0 },
          data: {
            language: 'javascript',
            variables: [{ name: 'feedback', selector: ['start', 'feedback'] }],
            code: SPLIT,
            outputs: [{ name: 'lines', type: 'array' }],
          },
        },
        {
          id: 'each',
          type: 'iteration',
          title: w.each,
          position: { x: 640, y: 0 },
          data: {
            list: ['split', 'lines'],
            output: ['label', 'structured'],
            parallel: true,
            parallel_limit: 4,
            error_mode: 'continue',
          },
        },
        {
          id: 'label',
          type: 'llm',
          title: w.label,
          parent_id: 'each',
          position: { x: 680, y: 200 },
          data: {
            system_prompt: w.system,
            user_prompt: '{{#each.item#}}',
            temperature: 0,
            json_schema: {
              type: 'object',
              properties: {
                sentiment: { type: 'string', enum: w.sentiments },
                topic: { type: 'string', description: w.topic },
                summary: { type: 'string', description: w.summary },
              },
              required: ['sentiment', 'topic', 'summary'],
            },
          },
        },
        {
          id: 'tally',
          type: 'code',
          title: w.tally,
          position: { x: 960, y: 0 },
          data: {
            language: 'javascript',
            variables: [
              { name: 'lines', selector: ['split', 'lines'] },
              { name: 'labels', selector: ['each', 'output'] },
            ],
            code: tally(w.unknown),
            outputs: [
              { name: 'results', type: 'array' },
              { name: 'counts', type: 'object' },
            ],
          },
        },
        {
          id: 'end',
          type: 'end',
          title: END[language],
          position: { x: 1280, y: 0 },
          data: {
            outputs: [
              { name: 'counts', selector: ['tally', 'counts'] },
              { name: 'results', selector: ['tally', 'results'] },
            ],
          },
        },
      ],
      edges: [
        { id: 'start-split', source: 'start', target: 'split' },
        { id: 'split-each', source: 'split', target: 'each' },
        { id: 'each-label', source: 'each', source_handle: 'body', target: 'label' },
        { id: 'each-tally', source: 'each', target: 'tally' },
        { id: 'tally-end', source: 'tally', target: 'end' },
      ],
    };
  },
};
