import type { Language } from './languages.ts';

// The billing codes of the error catalogue (40600–40699), kept apart like the chat and workflow
// ones. errors.ts merges them into ERRORS; codes are stable: never renumber one.
const entry = <C extends number>(code: C, httpStatus: number, msg: Record<Language, string>) => ({
  code,
  httpStatus,
  msg,
});

export const BILLING_ERRORS = {
  BALANCE_INSUFFICIENT: entry(40600, 200, {
    'zh-CN': '团队余额不足（当前 {balance}，本次需要 {amount}），请先充值。',
    'zh-TW': '團隊餘額不足（目前 {balance}，本次需要 {amount}），請先儲值。',
    en: 'The team balance is too low ({balance}; this needs {amount}). Please recharge first.',
  }),
} as const;
