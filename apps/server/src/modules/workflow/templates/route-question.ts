import type { Language } from '@athena/contract';
import type { BuiltinTemplate } from './template-types.ts';
import { END, START } from './words.ts';

const en = {
  question: 'Customer question',
  classify: 'Classify',
  presales: 'Pre-sales: product features, prices, availability',
  aftersales: 'After-sales: orders, delivery, returns, how to use',
  complaint: 'Complaint: the customer is unhappy',
  presalesTitle: 'Pre-sales answer',
  aftersalesTitle: 'After-sales answer',
  complaintTitle: 'Complaint answer',
  presalesRole: 'You are a friendly sales assistant. Answer the question about our products.',
  aftersalesRole: 'You are a support agent. Help with the order or product problem step by step.',
  complaintRole:
    'You handle complaints. Apologise sincerely, restate the problem, and say a person will follow up within one working day.',
  merge: 'Merge',
};
const words: Record<Language, typeof en> = {
  'zh-CN': {
    question: '客户问题',
    classify: '问题分类',
    presales: '售前：产品功能、价格、库存',
    aftersales: '售后：订单、物流、退换货、使用方法',
    complaint: '投诉：客户不满意',
    presalesTitle: '售前回答',
    aftersalesTitle: '售后回答',
    complaintTitle: '投诉回应',
    presalesRole: '你是一位亲切的销售顾问。请回答客户关于我们产品的问题。',
    aftersalesRole: '你是一位客服专员。请一步一步帮助客户解决订单或产品问题。',
    complaintRole: '你负责处理投诉。请真诚道歉，复述客户遇到的问题，并说明会有专人在一个工作日内跟进。',
    merge: '汇总回答',
  },
  'zh-TW': {
    question: '客戶問題',
    classify: '問題分類',
    presales: '售前：產品功能、價格、庫存',
    aftersales: '售後：訂單、物流、退換貨、使用方式',
    complaint: '客訴：客戶不滿意',
    presalesTitle: '售前回答',
    aftersalesTitle: '售後回答',
    complaintTitle: '客訴回應',
    presalesRole: '你是一位親切的銷售顧問。請回答客戶關於我們產品的問題。',
    aftersalesRole: '你是一位客服專員。請一步一步協助客戶解決訂單或產品問題。',
    complaintRole: '你負責處理客訴。請誠懇道歉，複述客戶遇到的問題，並說明會有專人在一個工作天內跟進。',
    merge: '彙整回答',
  },
  en,
};

const answerer = (id: string, title: string, y: number, role: string) => ({
  id,
  type: 'llm' as const,
  title,
  position: { x: 640, y },
  data: { system_prompt: role, user_prompt: '{{#start.question#}}' },
});

export const routeQuestion: BuiltinTemplate = {
  id: 'builtin-route-question',
  category: 'customer_service',
  name: { 'zh-CN': '客户问题分类与分流', 'zh-TW': '客戶問題分類與分流', en: 'Classify and route a customer question' },
  description: {
    'zh-CN': '先判断客户问题属于售前、售后还是投诉，再交给对应的回答方式。',
    'zh-TW': '先判斷客戶問題屬於售前、售後還是客訴，再交給對應的回答方式。',
    en: 'Decides whether a customer question is pre-sales, after-sales or a complaint, then answers it the right way.',
  },
  graph: (language) => {
    const w = words[language];
    return {
      nodes: [
        {
          id: 'start',
          type: 'start',
          title: START[language],
          position: { x: 0, y: 160 },
          data: { inputs: [{ name: 'question', label: w.question, type: 'paragraph', required: true }] },
        },
        {
          id: 'classify',
          type: 'classifier',
          title: w.classify,
          position: { x: 320, y: 160 },
          data: {
            query: ['start', 'question'],
            classes: [
              { id: 'presales', name: w.presales },
              { id: 'aftersales', name: w.aftersales },
              { id: 'complaint', name: w.complaint },
            ],
          },
        },
        answerer('presales_answer', w.presalesTitle, 0, w.presalesRole),
        answerer('aftersales_answer', w.aftersalesTitle, 160, w.aftersalesRole),
        answerer('complaint_answer', w.complaintTitle, 320, w.complaintRole),
        {
          id: 'merge',
          type: 'aggregator',
          title: w.merge,
          position: { x: 960, y: 160 },
          data: {
            selectors: [
              ['presales_answer', 'text'],
              ['aftersales_answer', 'text'],
              ['complaint_answer', 'text'],
            ],
            output_type: 'string',
          },
        },
        {
          id: 'end',
          type: 'end',
          title: END[language],
          position: { x: 1280, y: 160 },
          data: {
            outputs: [
              { name: 'category', selector: ['classify', 'class_name'] },
              { name: 'answer', selector: ['merge', 'output'] },
            ],
          },
        },
      ],
      edges: [
        { id: 'start-classify', source: 'start', target: 'classify' },
        { id: 'classify-presales', source: 'classify', source_handle: 'presales', target: 'presales_answer' },
        { id: 'classify-aftersales', source: 'classify', source_handle: 'aftersales', target: 'aftersales_answer' },
        { id: 'classify-complaint', source: 'classify', source_handle: 'complaint', target: 'complaint_answer' },
        { id: 'presales-merge', source: 'presales_answer', target: 'merge' },
        { id: 'aftersales-merge', source: 'aftersales_answer', target: 'merge' },
        { id: 'complaint-merge', source: 'complaint_answer', target: 'merge' },
        { id: 'merge-end', source: 'merge', target: 'end' },
      ],
    };
  },
};
