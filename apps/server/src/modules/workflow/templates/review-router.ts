import type { Language } from '@athena/contract';
import type { BuiltinTemplate } from './template-types.ts';
import { END, START } from './words.ts';

const en = {
  review: 'Customer review',
  analyze: 'Rate satisfaction',
  instruction: 'Read the customer review and judge how satisfied the customer is.',
  score: 'How satisfied the customer is, from 1 (very unhappy) to 5 (delighted)',
  issue: 'The customer’s main problem in one sentence; empty if there is none',
  route: 'Unhappy?',
  unhappy: 'Apologise and escalate',
  unhappySystem:
    'The customer is unhappy. Write a short public reply in the language of the review: thank them for the feedback, apologise once for the specific problem, say the team is looking into it and how to reach us directly. No excuses, no promises of compensation.',
  happy: 'Thank the customer',
  happySystem:
    'Write a short, warm public reply to this review in its language: thank the customer, mention one specific thing they liked, and invite them back. No marketing slogans.',
  merge: 'Merge replies',
};
const words: Record<Language, typeof en> = {
  'zh-CN': {
    review: '客户评价',
    analyze: '评估满意度',
    instruction: '阅读客户评价，判断客户的满意程度。',
    score: '客户满意度，1（非常不满）到 5（非常满意）',
    issue: '用一句话说明客户遇到的主要问题；没有问题则留空',
    route: '是否不满',
    unhappy: '致歉并升级处理',
    unhappySystem:
      '这位客户不满意。请用评价所用的语言写一段简短的公开回复：感谢反馈，针对具体问题道歉一次，说明团队正在处理，并告知直接联系我们的方式。不找借口，不承诺补偿。',
    happy: '感谢客户',
    happySystem:
      '请用评价所用的语言写一段简短、温暖的公开回复：感谢客户，提到一项客户喜欢的具体之处，欢迎再次光临。不要写广告口号。',
    merge: '汇总回复',
  },
  'zh-TW': {
    review: '客戶評價',
    analyze: '評估滿意度',
    instruction: '閱讀客戶評價，判斷客戶的滿意程度。',
    score: '客戶滿意度，1（非常不滿）到 5（非常滿意）',
    issue: '用一句話說明客戶遇到的主要問題；沒有問題則留空',
    route: '是否不滿',
    unhappy: '致歉並升級處理',
    unhappySystem:
      '這位客戶不滿意。請用評價所用的語言寫一段簡短的公開回覆：感謝回饋，針對具體問題道歉一次，說明團隊正在處理，並告知直接聯絡我們的方式。不找藉口，不承諾補償。',
    happy: '感謝客戶',
    happySystem:
      '請用評價所用的語言寫一段簡短、溫暖的公開回覆：感謝客戶，提到一項客戶喜歡的具體之處，歡迎再次光臨。不要寫廣告標語。',
    merge: '彙整回覆',
  },
  en,
};

export const reviewRouter: BuiltinTemplate = {
  id: 'builtin-review-router',
  category: 'customer_service',
  name: { 'zh-CN': '按满意度回复评价', 'zh-TW': '依滿意度回覆評價', en: 'Reply to reviews by satisfaction' },
  description: {
    'zh-CN': '参数提取给评价打 1–5 分，条件分支把 2 分及以下（或无法判断）的评价交给致歉升级的回复，其余的写感谢回复。',
    'zh-TW': '參數擷取為評價打 1–5 分，條件分支把 2 分以下（或無法判斷）的評價交給致歉升級的回覆，其餘的寫感謝回覆。',
    en: 'A parameter extractor scores a review from 1 to 5; an if/else sends scores of 2 or less (or reviews it could not score) to an apologise-and-escalate reply and the rest to a thank-you.',
  },
  graph: (language) => {
    const w = words[language];
    return {
      nodes: [
        {
          id: 'start',
          type: 'start',
          title: START[language],
          position: { x: 0, y: 120 },
          data: { inputs: [{ name: 'review', label: w.review, type: 'paragraph', required: true }] },
        },
        {
          id: 'analyze',
          type: 'extractor',
          title: w.analyze,
          position: { x: 320, y: 120 },
          data: {
            query: ['start', 'review'],
            instruction: w.instruction,
            temperature: 0,
            parameters: [
              { name: 'score', type: 'number', description: w.score, required: true },
              { name: 'issue', type: 'string', description: w.issue, required: false },
            ],
          },
        },
        {
          id: 'route',
          type: 'if_else',
          title: w.route,
          position: { x: 640, y: 120 },
          data: {
            cases: [
              {
                id: 'unhappy',
                // A review the model could not score is answered with care, not with thanks.
                logical_operator: 'or',
                conditions: [
                  { selector: ['analyze', 'score'], operator: 'le', value: '2' },
                  { selector: ['analyze', '__is_success'], operator: 'eq', value: '0' },
                ],
              },
            ],
          },
        },
        {
          id: 'apologize',
          type: 'llm',
          title: w.unhappy,
          position: { x: 960, y: 0 },
          data: { system_prompt: w.unhappySystem, user_prompt: '{{#start.review#}}', temperature: 0.4 },
        },
        {
          id: 'thank',
          type: 'llm',
          title: w.happy,
          position: { x: 960, y: 240 },
          data: { system_prompt: w.happySystem, user_prompt: '{{#start.review#}}', temperature: 0.7 },
        },
        {
          id: 'merge',
          type: 'aggregator',
          title: w.merge,
          position: { x: 1280, y: 120 },
          data: {
            selectors: [
              ['apologize', 'text'],
              ['thank', 'text'],
            ],
            output_type: 'string',
          },
        },
        {
          id: 'end',
          type: 'end',
          title: END[language],
          position: { x: 1600, y: 120 },
          data: {
            outputs: [
              { name: 'score', selector: ['analyze', 'score'] },
              { name: 'issue', selector: ['analyze', 'issue'] },
              { name: 'reply', selector: ['merge', 'output'] },
            ],
          },
        },
      ],
      edges: [
        { id: 'start-analyze', source: 'start', target: 'analyze' },
        { id: 'analyze-route', source: 'analyze', target: 'route' },
        { id: 'route-apologize', source: 'route', source_handle: 'unhappy', target: 'apologize' },
        { id: 'route-thank', source: 'route', source_handle: 'else', target: 'thank' },
        { id: 'apologize-merge', source: 'apologize', target: 'merge' },
        { id: 'thank-merge', source: 'thank', target: 'merge' },
        { id: 'merge-end', source: 'merge', target: 'end' },
      ],
    };
  },
};
