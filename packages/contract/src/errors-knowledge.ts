import type { Language } from './languages.ts';

// The knowledge-base codes of the error catalogue (40100–40199), kept apart like the billing ones.
// errors.ts merges them into ERRORS; codes are stable: never renumber one.
const entry = <C extends number>(code: C, httpStatus: number, msg: Record<Language, string>) => ({
  code,
  httpStatus,
  msg,
});

export const KNOWLEDGE_ERRORS = {
  KNOWLEDGE_NAME_REQUIRED: entry(40100, 200, {
    'zh-CN': '知识库名称不能为空。',
    'zh-TW': '知識庫名稱不能為空。',
    en: 'Knowledge base name cannot be empty.',
  }),
  KNOWLEDGE_NAME_TOO_LONG: entry(40101, 200, {
    'zh-CN': '名称最多 50 个字符。',
    'zh-TW': '名稱最多 50 個字元。',
    en: 'The name can be at most 50 characters.',
  }),
  UNSUPPORTED_FILE_FORMAT: entry(40102, 200, {
    'zh-CN': '不支持的文件格式。仅支持 PDF、TXT、DOCX 或 Excel/CSV 文件。',
    'zh-TW': '不支援的檔案格式。僅支援 PDF、TXT、DOCX 或 Excel/CSV 檔案。',
    en: 'Unsupported file format. Only PDF, TXT, DOCX or Excel/CSV files are accepted.',
  }),
  FILE_SIZE_EXCEEDED: entry(40103, 413, {
    'zh-CN': '文件大小超出限制，单个文件不能超过 20 MB。',
    'zh-TW': '檔案大小超出限制，單一檔案不能超過 20 MB。',
    en: 'File size exceeded: each file must be 20 MB or smaller.',
  }),
  UPLOAD_FAILED: entry(40104, 200, {
    'zh-CN': '上传失败：{detail}',
    'zh-TW': '上傳失敗：{detail}',
    en: 'Upload failed: {detail}',
  }),
  DUPLICATE_FILE: entry(40105, 200, {
    'zh-CN': '该知识库中已有相同内容的文件「{name}」。',
    'zh-TW': '該知識庫中已有相同內容的檔案「{name}」。',
    en: 'This knowledge base already has a file with the same content: “{name}”.',
  }),
  FILE_EMPTY: entry(40106, 200, {
    'zh-CN': '文件中没有可以读取的文字。',
    'zh-TW': '檔案中沒有可以讀取的文字。',
    en: 'The file has no readable text.',
  }),
  TOO_MANY_FILES: entry(40107, 200, {
    'zh-CN': '一次最多上传 10 个文件。',
    'zh-TW': '一次最多上傳 10 個檔案。',
    en: 'You can upload at most 10 files at a time.',
  }),
  UNIT_STATE_CONFLICT: entry(40108, 200, {
    'zh-CN': '文件当前为「{status}」，不能执行此操作。',
    'zh-TW': '檔案目前為「{status}」，不能執行此操作。',
    en: 'The file is now “{status}” and this cannot be done.',
  }),
  SEGMENT_CONTENT_REQUIRED: entry(40109, 200, {
    'zh-CN': '分段内容不能为空（问答分段需要填写问题和答案）。',
    'zh-TW': '分段內容不能為空（問答分段需要填寫問題和答案）。',
    en: 'A segment needs content (a Q&A segment needs both question and answer).',
  }),
  FILE_TOO_COMPLEX: entry(40114, 200, {
    'zh-CN':
      '文件解压后过大或结构过于复杂，无法安全读取（例如超过 100 MB 或部件过多）。请另存为普通文件或拆分后再上传。',
    'zh-TW':
      '檔案解壓後過大或結構過於複雜，無法安全讀取（例如超過 100 MB 或部件過多）。請另存為一般檔案或拆分後再上傳。',
    en: 'This file unpacks to too much data or is too complex to read safely (for example over 100 MB, or too many parts). Save it again as a plain file, or split it, and upload it again.',
  }),
  TABLE_COLUMNS_INVALID: entry(40110, 200, {
    'zh-CN': '请选择表格中存在的问题列和答案列。',
    'zh-TW': '請選擇表格中存在的問題欄和答案欄。',
    en: 'Choose a question column and an answer column that exist in the sheet.',
  }),
  NO_EMBEDDING_MODEL: entry(40111, 200, {
    'zh-CN': '所选向量模型不可用，请在“模型密钥”中检查。',
    'zh-TW': '所選向量模型不可用，請在「模型金鑰」中檢查。',
    en: 'The chosen embedding model is not available. Check it under LLM API keys.',
  }),
  GROUP_NAME_REQUIRED: entry(40112, 200, {
    'zh-CN': '分组名称不能为空。',
    'zh-TW': '分組名稱不能為空。',
    en: 'Group name cannot be empty.',
  }),
  QUERY_REQUIRED: entry(40113, 200, {
    'zh-CN': '请输入要检索的内容。',
    'zh-TW': '請輸入要檢索的內容。',
    en: 'Please type something to search for.',
  }),
} as const;
