import type { Language } from '@athena/contract';
import type { BuiltinTemplate } from './template-types.ts';
import { END, START } from './words.ts';

const en = {
  message: 'Customer message',
  facts: 'What we know (order status, policy, earlier replies)',
  tone: 'Tone',
  tones: ['Warm', 'Formal', 'Short and direct'],
  draft: 'Draft the reply',
  system: [
    'You draft replies for a customer service team. Rules:',
    '1. Reply in the language the customer wrote in, in the requested tone.',
    '2. First acknowledge the customer’s situation in one sentence; greet them by name if they gave it.',
    '3. Use only the facts given. Never promise refunds, compensation, dates or exceptions the facts do not state; if something is unknown, say you will check.',
    '4. Never blame the customer, and do not apologise more than once.',
    '5. End with one clear next step. Keep it under 150 words, without placeholders such as [name].',
  ].join('\n'),
  user: 'Customer message:\n{{#start.message#}}\n\nFacts:\n{{#start.facts#}}\n\nTone: {{#start.tone#}}',
};
const words: Record<Language, typeof en> = {
  'zh-CN': {
    message: '客户消息',
    facts: '已知信息（订单状态、政策、之前的回复）',
    tone: '语气',
    tones: ['温暖亲切', '正式', '简短直接'],
    draft: '起草回复',
    system: [
      '你为客服团队起草回复。规则：',
      '1. 使用客户所用的语言，按要求的语气回复。',
      '2. 先用一句话回应客户的处境；客户留了名字就称呼其名字。',
      '3. 只使用给出的事实。事实中没有写明的退款、补偿、日期或特殊处理一律不承诺；不清楚的就说会去核实。',
      '4. 不责怪客户，道歉不超过一次。',
      '5. 结尾给出一个明确的下一步。不超过 250 字，不要留 [姓名] 这类占位符。',
    ].join('\n'),
    user: '客户消息：\n{{#start.message#}}\n\n已知信息：\n{{#start.facts#}}\n\n语气：{{#start.tone#}}',
  },
  'zh-TW': {
    message: '客戶訊息',
    facts: '已知資訊（訂單狀態、政策、先前的回覆）',
    tone: '語氣',
    tones: ['溫暖親切', '正式', '簡短直接'],
    draft: '草擬回覆',
    system: [
      '你為客服團隊草擬回覆。規則：',
      '1. 使用客戶所用的語言，依要求的語氣回覆。',
      '2. 先用一句話回應客戶的處境；客戶留了名字就稱呼其名字。',
      '3. 只使用提供的事實。事實中沒有寫明的退款、補償、日期或特殊處理一律不承諾；不清楚的就說會去確認。',
      '4. 不責怪客戶，道歉不超過一次。',
      '5. 結尾給出一個明確的下一步。不超過 250 字，不要留 [姓名] 這類預留文字。',
    ].join('\n'),
    user: '客戶訊息：\n{{#start.message#}}\n\n已知資訊：\n{{#start.facts#}}\n\n語氣：{{#start.tone#}}',
  },
  en,
};

export const customerReply: BuiltinTemplate = {
  id: 'builtin-customer-reply',
  category: 'customer_service',
  name: { 'zh-CN': '起草客服回复', 'zh-TW': '草擬客服回覆', en: 'Draft a customer service reply' },
  description: {
    'zh-CN': '贴上客户消息和已知信息，选择语气，按客服规则起草回复：先回应处境、只用已知事实、不乱承诺、给出下一步。',
    'zh-TW': '貼上客戶訊息和已知資訊，選擇語氣，依客服規則草擬回覆：先回應處境、只用已知事實、不亂承諾、給出下一步。',
    en: 'Paste the customer’s message and what you know, pick a tone, and get a reply drafted by service rules: acknowledge first, use only known facts, promise nothing unstated, end with a next step.',
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
          data: {
            inputs: [
              { name: 'message', label: w.message, type: 'paragraph', required: true },
              { name: 'facts', label: w.facts, type: 'paragraph', required: false },
              { name: 'tone', label: w.tone, type: 'select', required: true, options: w.tones },
            ],
          },
        },
        {
          id: 'draft',
          type: 'llm',
          title: w.draft,
          position: { x: 320, y: 0 },
          data: { system_prompt: w.system, user_prompt: w.user, temperature: 0.4 },
        },
        {
          id: 'end',
          type: 'end',
          title: END[language],
          position: { x: 640, y: 0 },
          data: { outputs: [{ name: 'reply', selector: ['draft', 'text'] }] },
        },
      ],
      edges: [
        { id: 'start-draft', source: 'start', target: 'draft' },
        { id: 'draft-end', source: 'draft', target: 'end' },
      ],
    };
  },
};
