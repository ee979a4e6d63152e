import type { Language } from '@athena/contract';
import type { BuiltinTemplate } from './template-types.ts';
import { END, START } from './words.ts';

const en = {
  product: 'Product name',
  features: 'Features and specifications',
  audience: 'Who it is for',
  tone: 'Tone',
  tones: ['Warm and friendly', 'Professional', 'Lively and playful'],
  describe: 'Write the description',
  system:
    'You are an e-commerce copywriter. Write a product description of 120–200 words: open with the main benefit for the audience, then turn each feature into a concrete benefit. ' +
    'Use only the facts given; never invent specifications, prices or awards. Use the requested tone.',
  user: 'Product: {{#start.product#}}\nFeatures: {{#start.features#}}\nAudience: {{#start.audience#}}\nTone: {{#start.tone#}}',
  headline: 'Write the headline',
  headlineSystem:
    'From the product description, write one headline of at most 12 words and one tagline of at most 20 words, on two lines, nothing else.',
};
const words: Record<Language, typeof en> = {
  'zh-CN': {
    product: '产品名称',
    features: '功能与规格',
    audience: '目标人群',
    tone: '语气',
    tones: ['亲切友好', '专业稳重', '活泼有趣'],
    describe: '撰写商品描述',
    system:
      '你是一位电商文案。请写一段 200–350 字的商品描述：开头点出对目标人群最大的好处，再把每项功能写成具体的好处。' +
      '只使用给出的事实，绝不编造规格、价格或奖项。使用要求的语气。',
    user: '产品：{{#start.product#}}\n功能：{{#start.features#}}\n目标人群：{{#start.audience#}}\n语气：{{#start.tone#}}',
    headline: '撰写标题',
    headlineSystem: '根据商品描述，写一个不超过 20 字的标题和一句不超过 30 字的宣传语，分两行，不要写其他内容。',
  },
  'zh-TW': {
    product: '產品名稱',
    features: '功能與規格',
    audience: '目標族群',
    tone: '語氣',
    tones: ['親切友善', '專業穩重', '活潑有趣'],
    describe: '撰寫商品描述',
    system:
      '你是一位電商文案。請寫一段 200–350 字的商品描述：開頭點出對目標族群最大的好處，再把每項功能寫成具體的好處。' +
      '只使用提供的事實，絕不捏造規格、價格或獎項。使用要求的語氣。',
    user: '產品：{{#start.product#}}\n功能：{{#start.features#}}\n目標族群：{{#start.audience#}}\n語氣：{{#start.tone#}}',
    headline: '撰寫標題',
    headlineSystem: '根據商品描述，寫一個不超過 20 字的標題和一句不超過 30 字的標語，分兩行，不要寫其他內容。',
  },
  en,
};

export const productCopy: BuiltinTemplate = {
  id: 'builtin-product-copy',
  category: 'content',
  name: { 'zh-CN': '商品描述文案', 'zh-TW': '商品描述文案', en: 'Product description writer' },
  description: {
    'zh-CN': '填写产品名称、功能、目标人群和语气，先写出商品描述，再据此写出标题和宣传语。只使用你提供的事实。',
    'zh-TW': '填寫產品名稱、功能、目標族群和語氣，先寫出商品描述，再據此寫出標題和標語。只使用你提供的事實。',
    en: 'Give the product name, features, audience and tone: a model writes the description, then a headline and tagline from it. Only the facts you give are used.',
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
              { name: 'product', label: w.product, type: 'text', required: true, max_length: 200 },
              { name: 'features', label: w.features, type: 'paragraph', required: true },
              { name: 'audience', label: w.audience, type: 'text', required: false, max_length: 200 },
              { name: 'tone', label: w.tone, type: 'select', required: true, options: w.tones },
            ],
          },
        },
        {
          id: 'describe',
          type: 'llm',
          title: w.describe,
          position: { x: 320, y: 0 },
          data: { system_prompt: w.system, user_prompt: w.user, temperature: 0.8 },
        },
        {
          id: 'headline',
          type: 'llm',
          title: w.headline,
          position: { x: 640, y: 0 },
          data: { system_prompt: w.headlineSystem, user_prompt: '{{#describe.text#}}', temperature: 0.9 },
        },
        {
          id: 'end',
          type: 'end',
          title: END[language],
          position: { x: 960, y: 0 },
          data: {
            outputs: [
              { name: 'headline', selector: ['headline', 'text'] },
              { name: 'description', selector: ['describe', 'text'] },
            ],
          },
        },
      ],
      edges: [
        { id: 'start-describe', source: 'start', target: 'describe' },
        { id: 'describe-headline', source: 'describe', target: 'headline' },
        { id: 'headline-end', source: 'headline', target: 'end' },
      ],
    };
  },
};
