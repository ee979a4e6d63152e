import type { Language } from './languages.ts';

// The media-library codes of the error catalogue (40700–40799), kept apart like the billing ones.
// errors.ts merges them into ERRORS; codes are stable: never renumber one.
const entry = <C extends number>(code: C, httpStatus: number, msg: Record<Language, string>) => ({
  code,
  httpStatus,
  msg,
});

export const MEDIA_ERRORS = {
  MEDIA_NAME_INVALID: entry(40700, 200, {
    'zh-CN': '名称须为 1 到 100 个字符。',
    'zh-TW': '名稱須為 1 到 100 個字元。',
    en: 'A name must be 1 to 100 characters.',
  }),
  MEDIA_GROUP_NAME_TAKEN: entry(40701, 200, {
    'zh-CN': '已有同名的分组。',
    'zh-TW': '已有同名的分組。',
    en: 'A group with this name already exists.',
  }),
  MEDIA_DESCRIPTION_INVALID: entry(40702, 200, {
    'zh-CN': '描述最多 2000 个字符。',
    'zh-TW': '描述最多 2000 個字元。',
    en: 'A description may have at most 2000 characters.',
  }),
  /** requirements.md, Limits: a media file is at most 5 GB. */
  MEDIA_FILE_TOO_LARGE: entry(40703, 413, {
    'zh-CN': '媒体文件不能超过 5 GB。',
    'zh-TW': '媒體檔案不能超過 5 GB。',
    en: 'A media file may be at most 5 GB.',
  }),
  MEDIA_QUOTA_EXCEEDED: entry(40704, 413, {
    'zh-CN': '团队存储空间不足（已用 {used}，上限 {quota}）。',
    'zh-TW': '團隊儲存空間不足（已用 {used}，上限 {quota}）。',
    en: 'The team is out of storage ({used} of {quota} used).',
  }),
  MEDIA_UPLOAD_INVALID: entry(40705, 400, {
    'zh-CN': '上传请求无效：须指定媒体库和文件名，并声明文件大小。',
    'zh-TW': '上傳請求無效：須指定媒體庫和檔名，並聲明檔案大小。',
    en: 'Invalid upload: a library, a file name and the file size are required.',
  }),
  MEDIA_ITEM_NOT_IN_TRASH: entry(40706, 200, {
    'zh-CN': '该媒体不在回收站中。',
    'zh-TW': '該媒體不在回收站中。',
    en: 'This item is not in the trash.',
  }),
  MEDIA_ITEM_NOT_READY: entry(40707, 200, {
    'zh-CN': '该媒体尚未处理完成，暂不可用。',
    'zh-TW': '該媒體尚未處理完成，暫不可用。',
    en: 'This item is not ready yet.',
  }),
  MEDIA_EMPTY_FILE: entry(40708, 400, {
    'zh-CN': '文件为空。',
    'zh-TW': '檔案為空。',
    en: 'The file is empty.',
  }),
  MEDIA_AUX_IMAGE_INVALID: entry(40709, 200, {
    'zh-CN': '辅助图片仅支持 jpg 或 png 格式。',
    'zh-TW': '輔助圖片僅支援 jpg 或 png 格式。',
    en: 'An auxiliary image must be a jpg or png file.',
  }),
  MEDIA_AUX_IMAGE_TOO_LARGE: entry(40710, 413, {
    'zh-CN': '辅助图片不能超过 10 MB，且不超过 1 亿像素。',
    'zh-TW': '輔助圖片不能超過 10 MB，且不超過 1 億像素。',
    en: 'An auxiliary image may be at most 10 MB and 100 megapixels.',
  }),
} as const;
