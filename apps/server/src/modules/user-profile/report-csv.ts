import { CHAT_SEND_TYPES, type Language, type ReportOverview } from '@athena/contract';
import { csvDocument } from '../../platform/csv.ts';

const SEND_TYPE_HEADERS: Record<Language, string[]> = {
  'zh-CN': ['客户消息', 'AI 全自动消息', 'AI 辅助消息', '人工消息', 'AI 手动消息', '固定回复消息'],
  'zh-TW': ['客戶訊息', 'AI 全自動訊息', 'AI 輔助訊息', '人工訊息', 'AI 手動訊息', '固定回覆訊息'],
  en: [
    'Customer messages',
    'AI (auto) messages',
    'AI-assisted messages',
    'Human messages',
    'AI (manual) messages',
    'Fixed-reply messages',
  ],
};
const HEADERS: Record<Language, [string[], string[]]> = {
  'zh-CN': [
    ['日期', '会话数', '新客户'],
    [
      '有客户提问的会话',
      '已回复会话',
      '平均首次响应（秒）',
      '1 分钟内回复',
      'AI 解决率',
      '转人工率',
      '激活发送成功',
      '激活发送失败',
      '激活成功率',
      '满意度调查',
      '已评价',
      '平均满意度',
    ],
  ],
  'zh-TW': [
    ['日期', '會話數', '新客戶'],
    [
      '有客戶提問的會話',
      '已回覆會話',
      '平均首次回應（秒）',
      '1 分鐘內回覆',
      'AI 解決率',
      '轉人工率',
      '喚回發送成功',
      '喚回發送失敗',
      '喚回成功率',
      '滿意度調查',
      '已評價',
      '平均滿意度',
    ],
  ],
  en: [
    ['Day', 'Sessions', 'New customers'],
    [
      'Sessions with a customer message',
      'Answered sessions',
      'Mean first response (s)',
      'Answered within 1 min',
      'AI resolution rate',
      'Hand-over rate',
      'Activation sent',
      'Activation failed',
      'Activation success rate',
      'Surveys asked',
      'Rated',
      'Mean satisfaction',
    ],
  ],
};

/** A share as a percentage with one decimal, empty when there is nothing to divide. */
const percent = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 1000) / 10}%` : '');

/**
 * The report as CSV (platform/csv.ts), one line per day, headers in the reader's language.
 */
export function reportCsv(report: ReportOverview, language: Language) {
  const [head, tail] = HEADERS[language];
  const rows: (string | number)[][] = [[...head, ...SEND_TYPE_HEADERS[language], ...tail]];
  for (const day of report.days) {
    const finished = day.activation_sent + day.activation_failed;
    rows.push([
      day.day,
      day.sessions,
      day.new_customers,
      ...CHAT_SEND_TYPES.map((type) => day.messages[type]),
      day.asked,
      day.replied,
      day.first_response_seconds ?? '',
      day.replied_within.m1,
      percent(day.ai_resolved, day.asked),
      percent(day.handed_over, day.asked),
      day.activation_sent,
      day.activation_failed,
      percent(day.activation_sent, finished),
      day.surveys_requested,
      day.surveys_rated,
      day.satisfaction_score ?? '',
    ]);
  }
  return csvDocument(rows);
}
