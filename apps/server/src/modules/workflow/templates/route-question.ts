import type { BuiltinTemplate } from './template-types.ts';

const answerer = (id: string, y: number, role: string) => ({
  id,
  type: 'llm' as const,
  title: id,
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
  graph: {
    nodes: [
      {
        id: 'start',
        type: 'start',
        title: 'Start',
        position: { x: 0, y: 160 },
        data: { inputs: [{ name: 'question', label: 'Customer question', type: 'paragraph', required: true }] },
      },
      {
        id: 'classify',
        type: 'classifier',
        title: 'Classify',
        position: { x: 320, y: 160 },
        data: {
          query: ['start', 'question'],
          classes: [
            { id: 'presales', name: 'Pre-sales: product features, prices, availability' },
            { id: 'aftersales', name: 'After-sales: orders, delivery, returns, how to use' },
            { id: 'complaint', name: 'Complaint: the customer is unhappy' },
          ],
        },
      },
      answerer('presales_answer', 0, 'You are a friendly sales assistant. Answer the question about our products.'),
      answerer(
        'aftersales_answer',
        160,
        'You are a support agent. Help with the order or product problem step by step.',
      ),
      answerer(
        'complaint_answer',
        320,
        'You handle complaints. Apologise sincerely, restate the problem, and say a person will follow up within one working day.',
      ),
      {
        id: 'merge',
        type: 'aggregator',
        title: 'Merge',
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
        title: 'End',
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
  },
};
