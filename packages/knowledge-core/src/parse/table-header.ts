/**
 * Whether a sheet's first row is a header. Deliberately simple rules, in this order:
 *  1. Every cell of the first row is filled, the cells are distinct, and at most a quarter look
 *     numeric (labels are words, not figures).
 *  2. The rows below differ in shape from it in at least one column: in the first data rows that
 *     column holds numbers or dates (the label does not), has empty cells, or has values clearly
 *     longer than the label — or the first row uses a common column name (问题, 答案, name, …).
 * A single-row sheet has no header: its only row is kept as data rather than lost to a label.
 */

const SAMPLE_ROWS = 20;
const NUMBER = /^[-+]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?([eE][-+]?\d+)?%?$/;
const DATE = /^\d{4}[-/.年]\d{1,2}([-/.月]\d{1,2}日?)?([ T]\d{1,2}:\d{2}(:\d{2})?)?$/;
const COMMON_COLUMN_NAMES = new Set([
  ...[
    '问题',
    '答案',
    '问',
    '答',
    '标题',
    '内容',
    '名称',
    '姓名',
    '编号',
    '序号',
    '类型',
    '类别',
    '分类',
    '描述',
    '说明',
  ],
  ...['备注', '日期', '时间', '地址', '电话', '部门', '数量', '价格', '金额', '状态', '关键词', '来源', '链接'],
  ...['question', 'answer', 'q', 'a', 'title', 'content', 'name', 'id', 'no', 'type', 'category', 'description'],
  ...['note', 'notes', 'date', 'time', 'address', 'phone', 'email', 'department', 'status', 'price', 'amount', 'url'],
]);

export function looksNumeric(cell: string): boolean {
  const value = cell.trim();
  return value !== '' && value !== '-' && value !== '+' && (NUMBER.test(value) || DATE.test(value));
}

function labelRowCandidate(first: string[]): boolean {
  if (first.length === 0 || first.some((cell) => cell === '')) return false;
  if (new Set(first.map((cell) => cell.toLowerCase())).size !== first.length) return false;
  return first.filter(looksNumeric).length <= first.length / 4;
}

function columnDiffers(label: string, values: string[]): boolean {
  if (values.length === 0) return false;
  if (values.some((value) => value === '')) return true;
  if (values.some(looksNumeric)) return true;
  const averageLength = values.reduce((sum, value) => sum + value.length, 0) / values.length;
  return averageLength >= label.length * 2 + 4;
}

export function hasHeaderRow(rows: string[][]): boolean {
  if (rows.length < 2) return false;
  const [first, ...rest] = rows;
  if (!labelRowCandidate(first)) return false;
  if (first.some((cell) => COMMON_COLUMN_NAMES.has(cell.toLowerCase()))) return true;
  const sample = rest.slice(0, SAMPLE_ROWS);
  return first.some((label, column) =>
    columnDiffers(
      label,
      sample.map((row) => row[column] ?? ''),
    ),
  );
}
