import type { Language } from '@athena/contract';
import type { BuiltinTemplate } from './template-types.ts';
import { END, START } from './words.ts';

const en = {
  message: 'Order message (chat, email or form text)',
  extract: 'Extract the order as JSON',
  system:
    'You turn order messages into JSON. Copy names, phone numbers and addresses exactly as written. Use an empty string (or an empty list) for anything the message does not say; never guess.',
  orderNumber: 'The order number, if the message gives one',
  customer: 'The customer’s name',
  phone: 'The contact phone number',
  address: 'The full delivery address',
  items: 'Each product ordered',
  itemName: 'Product name',
  quantity: 'How many',
  spec: 'Size, colour or other option',
  date: 'Requested delivery date as YYYY-MM-DD',
  notes: 'Any other request',
  check: 'Check what is missing',
};
const words: Record<Language, typeof en> = {
  'zh-CN': {
    message: '订单消息（聊天、邮件或表单内容）',
    extract: '提取订单为 JSON',
    system:
      '你把订单消息转换成 JSON。姓名、电话和地址按原文照抄。消息中没有提到的内容用空字符串（或空列表）表示，绝不猜测。',
    orderNumber: '订单号（如果消息中有）',
    customer: '客户姓名',
    phone: '联系电话',
    address: '完整收货地址',
    items: '订购的每一件商品',
    itemName: '商品名称',
    quantity: '数量',
    spec: '尺码、颜色或其他规格',
    date: '期望送达日期，格式 YYYY-MM-DD',
    notes: '其他要求',
    check: '检查缺少的信息',
  },
  'zh-TW': {
    message: '訂單訊息（聊天、電子郵件或表單內容）',
    extract: '擷取訂單為 JSON',
    system:
      '你把訂單訊息轉換成 JSON。姓名、電話和地址依原文照抄。訊息中沒有提到的內容用空字串（或空清單）表示，絕不猜測。',
    orderNumber: '訂單編號（如果訊息中有）',
    customer: '客戶姓名',
    phone: '聯絡電話',
    address: '完整收件地址',
    items: '訂購的每一件商品',
    itemName: '商品名稱',
    quantity: '數量',
    spec: '尺寸、顏色或其他規格',
    date: '希望送達日期，格式 YYYY-MM-DD',
    notes: '其他需求',
    check: '檢查缺少的資訊',
  },
  en,
};

const schemaOf = (w: typeof en) => ({
  type: 'object',
  properties: {
    order_number: { type: 'string', description: w.orderNumber },
    customer_name: { type: 'string', description: w.customer },
    phone: { type: 'string', description: w.phone },
    address: { type: 'string', description: w.address },
    items: {
      type: 'array',
      description: w.items,
      items: {
        type: 'object',
        properties: {
          name: { type: 'string', description: w.itemName },
          quantity: { type: 'number', description: w.quantity },
          option: { type: 'string', description: w.spec },
        },
        required: ['name', 'quantity'],
      },
    },
    delivery_date: { type: 'string', description: w.date },
    notes: { type: 'string', description: w.notes },
  },
  required: ['customer_name', 'phone', 'address', 'items'],
});

// The fields a person must ask the customer for before the order can ship.
const CHECK = `function main({ order }) {
  const found = order && typeof order === 'object' ? order : {};
  const needed = ['customer_name', 'phone', 'address', 'items'];
  const missing = needed.filter((key) => {
    const value = found[key];
    return value == null || value === '' || (Array.isArray(value) && value.length === 0);
  });
  return { order: found, missing, complete: missing.length === 0 };
}`;

export const orderExtract: BuiltinTemplate = {
  id: 'builtin-order-extract',
  category: 'data',
  name: { 'zh-CN': '从消息中提取订单', 'zh-TW': '從訊息中擷取訂單', en: 'Extract an order from a message' },
  description: {
    'zh-CN':
      '大模型按 JSON Schema 从聊天或邮件中提取订单（客户、电话、地址、商品、数量、送达日期），代码节点再列出还缺哪些信息需要向客户确认。',
    'zh-TW':
      '大模型依 JSON Schema 從聊天或電子郵件中擷取訂單（客戶、電話、地址、商品、數量、送達日期），程式碼節點再列出還缺哪些資訊需要向客戶確認。',
    en: 'A model fills a JSON schema from a chat or email order (customer, phone, address, products, quantities, delivery date); a code node then lists what is still missing to ask the customer.',
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
          data: { inputs: [{ name: 'message', label: w.message, type: 'paragraph', required: true }] },
        },
        {
          id: 'extract',
          type: 'llm',
          title: w.extract,
          position: { x: 320, y: 0 },
          data: {
            system_prompt: w.system,
            user_prompt: '{{#start.message#}}',
            temperature: 0,
            json_schema: schemaOf(w),
          },
        },
        {
          id: 'check',
          type: 'code',
          title: w.check,
          position: { x: 640, y: 0 },
          data: {
            language: 'javascript',
            variables: [{ name: 'order', selector: ['extract', 'structured'] }],
            code: CHECK,
            outputs: [
              { name: 'order', type: 'object' },
              { name: 'missing', type: 'array' },
              { name: 'complete', type: 'boolean' },
            ],
          },
        },
        {
          id: 'end',
          type: 'end',
          title: END[language],
          position: { x: 960, y: 0 },
          data: {
            outputs: [
              { name: 'order', selector: ['check', 'order'] },
              { name: 'missing', selector: ['check', 'missing'] },
              { name: 'complete', selector: ['check', 'complete'] },
            ],
          },
        },
      ],
      edges: [
        { id: 'start-extract', source: 'start', target: 'extract' },
        { id: 'extract-check', source: 'extract', target: 'check' },
        { id: 'check-end', source: 'check', target: 'end' },
      ],
    };
  },
};
