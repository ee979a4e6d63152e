import { RECHARGE_LIMITS } from './billing-limits.ts';
import type { Language } from './languages.ts';
import { formatFen } from './money.ts';

// The billing codes of the error catalogue (40600–40699), kept apart like the chat and workflow
// ones. errors.ts merges them into ERRORS; codes are stable: never renumber one.
const entry = <C extends number>(code: C, httpStatus: number, msg: Record<Language, string>) => ({
  code,
  httpStatus,
  msg,
});

const RECHARGE_MIN = formatFen(RECHARGE_LIMITS.minFen);
const RECHARGE_MAX = formatFen(RECHARGE_LIMITS.maxFen);

export const BILLING_ERRORS = {
  BALANCE_INSUFFICIENT: entry(40600, 200, {
    'zh-CN': '团队余额不足（当前 {balance}，本次需要 {amount}），请先充值。',
    'zh-TW': '團隊餘額不足（目前 {balance}，本次需要 {amount}），請先儲值。',
    en: 'The team balance is too low ({balance}; this needs {amount}). Please recharge first.',
  }),
  // The limits are in the text itself: the body's schema refuses most bad amounts (150.5, "100",
  // null) before any code could pass them as parameters.
  RECHARGE_AMOUNT_INVALID: entry(40601, 200, {
    'zh-CN': `充值金额须为 ${RECHARGE_MIN} 到 ${RECHARGE_MAX} 之间的整分金额。`,
    'zh-TW': `儲值金額須為 ${RECHARGE_MIN} 到 ${RECHARGE_MAX} 之間的整分金額。`,
    en: `A recharge must be a whole number of fen between ${RECHARGE_MIN} and ${RECHARGE_MAX}.`,
  }),
  RECHARGE_CHANNEL_UNAVAILABLE: entry(40602, 200, {
    'zh-CN': '该支付方式暂不可用，请换一种方式。',
    'zh-TW': '此付款方式暫不可用，請換一種方式。',
    en: 'This payment method is not available. Please choose another one.',
  }),
  RECHARGE_ORDER_NOT_FOUND: entry(40603, 200, {
    'zh-CN': '充值订单不存在。',
    'zh-TW': '儲值訂單不存在。',
    en: 'The recharge order does not exist.',
  }),
  RECHARGE_TOO_MANY_OPEN: entry(40604, 200, {
    'zh-CN': '待支付的充值订单过多，请先完成或取消已有订单。',
    'zh-TW': '待付款的儲值訂單過多，請先完成或取消現有訂單。',
    en: 'Too many recharge orders are waiting for payment. Pay or cancel one first.',
  }),
  PAYMENT_PROVIDER_FAILED: entry(40605, 200, {
    'zh-CN': '支付渠道暂时无法处理，请稍后再试。',
    'zh-TW': '付款管道暫時無法處理，請稍後再試。',
    en: 'The payment provider could not handle this right now. Please try again later.',
  }),
  RECHARGE_ORDER_CLOSED: entry(40606, 200, {
    'zh-CN': '该订单已关闭或已过期，请重新下单。',
    'zh-TW': '此訂單已關閉或已逾期，請重新下單。',
    en: 'This order is closed or has expired. Please start a new recharge.',
  }),
  MODEL_BALANCE_INSUFFICIENT: entry(40607, 200, {
    'zh-CN':
      '团队余额不足以支付本次平台模型调用（当前可用 {available}，预计最多 {hold}）。请充值，或改用团队自己的模型密钥（免费）。',
    'zh-TW':
      '團隊餘額不足以支付本次平台模型呼叫（目前可用 {available}，預計最多 {hold}）。請儲值，或改用團隊自己的模型金鑰（免費）。',
    en: "The team balance cannot cover this platform model call ({available} available, up to {hold} needed). Recharge, or use the team's own model key (free).",
  }),
  PRICE_INVALID: entry(40608, 200, {
    'zh-CN': '价格须为 0 到 ¥100 之间（每千 tokens，精确到 ¥0.00001）。',
    'zh-TW': '價格須為 0 到 ¥100 之間（每千 tokens，精確到 ¥0.00001）。',
    en: 'A price must be between 0 and ¥100 per 1,000 tokens, to ¥0.00001.',
  }),
  BILLING_REASON_REQUIRED: entry(40609, 200, {
    'zh-CN': '请填写原因（最多 200 个字符）。',
    'zh-TW': '請填寫原因（最多 200 個字元）。',
    en: 'Please give a reason (at most 200 characters).',
  }),
  REFUND_AMOUNT_INVALID: entry(40610, 200, {
    'zh-CN': '退款金额须大于 0 且不超过可退金额 {refundable}。',
    'zh-TW': '退款金額須大於 0 且不超過可退金額 {refundable}。',
    en: 'A refund must be more than zero and at most the refundable {refundable}.',
  }),
  PLATFORM_MODEL_NOT_FOUND: entry(40611, 200, {
    'zh-CN': '平台模型不存在。',
    'zh-TW': '平台模型不存在。',
    en: 'The platform model does not exist.',
  }),
  OPERATOR_LOOKUP_NOT_FOUND: entry(40612, 200, {
    'zh-CN': '没有找到这个团队 ID 或订单号。',
    'zh-TW': '找不到這個團隊 ID 或訂單號。',
    en: 'No team has this id or order number.',
  }),
} as const;
