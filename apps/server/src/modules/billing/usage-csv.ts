import { formatMillifen, type Language, type UsageRecord } from '@athena/contract';
import { csvDocument } from '../../platform/csv.ts';

const HEADERS: Record<Language, string[]> = {
  'zh-CN': ['时间', '类型', '对象', '成员', '模型', '计费', '输入 tokens', '输出 tokens', '费用（元）', '结果'],
  'zh-TW': ['時間', '類型', '對象', '成員', '模型', '計費', '輸入 tokens', '輸出 tokens', '費用（元）', '結果'],
  en: [
    'Time',
    'Type',
    'Subject',
    'Member',
    'Model',
    'Billing',
    'Input tokens',
    'Output tokens',
    'Fee (CNY)',
    'Outcome',
  ],
};
const BILLING: Record<Language, [string, string]> = {
  'zh-CN': ['平台模型', '自有密钥（免费）'],
  'zh-TW': ['平台模型', '自有金鑰（免費）'],
  en: ['Platform model', 'Own key (free)'],
};

/** The fee records as CSV (platform/csv.ts), headers in the reader's language. */
export function usageCsv(rows: UsageRecord[], language: Language) {
  const [platform, own] = BILLING[language];
  const lines: (string | number)[][] = [HEADERS[language]];
  for (const row of rows) {
    lines.push([
      row.created_at,
      row.kind,
      row.subject?.name ?? '',
      row.user?.nickname ?? '',
      row.model,
      row.platform ? platform : own,
      row.input_tokens,
      row.output_tokens,
      // The exact fee in yuan, digits only (no currency sign or grouping), so it sums as a number.
      formatMillifen(row.fee_millifen, 'en').replace(/[¥,]/g, ''),
      row.outcome,
    ]);
  }
  return csvDocument(lines);
}
