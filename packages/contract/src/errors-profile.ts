import type { Language } from './languages.ts';

// The user-profile codes of the error catalogue (40800–40899), kept apart like the billing ones.
// errors.ts merges them into ERRORS; codes are stable: never renumber one.
const entry = <C extends number>(code: C, httpStatus: number, msg: Record<Language, string>) => ({
  code,
  httpStatus,
  msg,
});

export const PROFILE_ERRORS = {
  /** requirements.md: a profile field's name is required. */
  PROFILE_FIELD_NAME_REQUIRED: entry(40800, 200, {
    'zh-CN': '请填写字段名称。',
    'zh-TW': '請填寫欄位名稱。',
    en: 'Enter a field name.',
  }),
  PROFILE_FIELD_NAME_TOO_LONG: entry(40801, 200, {
    'zh-CN': '字段名称最多 30 个字符。',
    'zh-TW': '欄位名稱最多 30 個字元。',
    en: 'A field name may have at most 30 characters.',
  }),
  /** requirements.md: the field name must be unique. */
  PROFILE_FIELD_NAME_TAKEN: entry(40802, 200, {
    'zh-CN': '已有同名的字段，字段名称不能重复。',
    'zh-TW': '已有同名的欄位，欄位名稱不能重複。',
    en: 'A field with this name already exists; field names must be unique.',
  }),
  PROFILE_FIELD_LIMIT: entry(40803, 200, {
    'zh-CN': '每个场景最多 {max} 个字段。',
    'zh-TW': '每個場景最多 {max} 個欄位。',
    en: 'A scene may have at most {max} fields.',
  }),
  PROFILE_FIELD_OPTIONS_INVALID: entry(40804, 200, {
    'zh-CN': '选择字段须有 1 到 50 个不重复的选项，每个选项 1 到 50 个字符。',
    'zh-TW': '選擇欄位須有 1 到 50 個不重複的選項，每個選項 1 到 50 個字元。',
    en: 'A choice field needs 1 to 50 different options of 1 to 50 characters each.',
  }),
  PROFILE_FIELD_DESCRIPTION_TOO_LONG: entry(40805, 200, {
    'zh-CN': '字段说明最多 200 个字符。',
    'zh-TW': '欄位說明最多 200 個字元。',
    en: 'A field description may have at most 200 characters.',
  }),
  PROFILE_FIELD_TYPE_FIXED: entry(40806, 200, {
    'zh-CN': '字段类型创建后不能修改；请新建一个字段。',
    'zh-TW': '欄位類型建立後不能修改；請新建一個欄位。',
    en: "A field's type cannot change once created; make a new field instead.",
  }),
  /** requirements.md: a profile field's content is required. */
  PROFILE_VALUE_REQUIRED: entry(40810, 200, {
    'zh-CN': '「{field}」是必填字段，内容不能为空。',
    'zh-TW': '「{field}」是必填欄位，內容不能為空。',
    en: '"{field}" is required and cannot be empty.',
  }),
  PROFILE_VALUE_INVALID: entry(40811, 200, {
    'zh-CN': '「{field}」的内容格式不对：{expected}。',
    'zh-TW': '「{field}」的內容格式不對：{expected}。',
    en: 'The value of "{field}" is not right: {expected}.',
  }),
  PROFILE_VALUE_TOO_LONG: entry(40812, 200, {
    'zh-CN': '字段内容最多 1000 个字符。',
    'zh-TW': '欄位內容最多 1000 個字元。',
    en: 'A value may have at most 1000 characters.',
  }),
  PROFILE_CHANGE_NOT_REVERTIBLE: entry(40813, 200, {
    'zh-CN': '这条修改之后字段又被改过，不能直接撤销；请直接修改字段内容。',
    'zh-TW': '這條修改之後欄位又被改過，不能直接撤銷；請直接修改欄位內容。',
    en: 'The field changed again after this change, so it cannot be undone; edit the value instead.',
  }),
  /** AI extraction uses the agent of the scene's reply settings (docs/user-profiles.md, AI extraction). */
  PROFILE_EXTRACT_NO_MODEL: entry(40814, 200, {
    'zh-CN': 'AI 提取需要模型：请先在本场景的回复设置中选择一个智能体（它的模型密钥，或团队默认的对话模型）。',
    'zh-TW': 'AI 擷取需要模型：請先在本場景的回覆設定中選擇一個智慧體（它的模型金鑰，或團隊預設的對話模型）。',
    en: "AI extraction needs a model: choose an agent in this scene's reply settings (its model key, or the team's default chat model).",
  }),
  PROFILE_EXTRACT_NO_FIELDS: entry(40815, 200, {
    'zh-CN': '还没有开启 AI 提取的字段；请先在字段设置中开启。',
    'zh-TW': '還沒有開啟 AI 擷取的欄位；請先在欄位設定中開啟。',
    en: 'No field is filled by AI yet; turn on AI extraction in a field first.',
  }),
} as const;
