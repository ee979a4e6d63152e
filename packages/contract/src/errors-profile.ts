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
  // Behaviour data and satisfaction (docs/user-profiles.md): 40820–40839.
  BEHAVIOUR_BODY_INVALID: entry(40820, 400, {
    'zh-CN': '行为事件内容无效，整批未保存：{detail}',
    'zh-TW': '行為事件內容無效，整批未儲存：{detail}',
    en: 'The behaviour events are not valid and nothing of the batch was stored: {detail}',
  }),
  BEHAVIOUR_BATCH_TOO_LARGE: entry(40821, 413, {
    'zh-CN': '一次最多提交 {max} 个行为事件，整批未保存，请分批提交。',
    'zh-TW': '一次最多提交 {max} 個行為事件，整批未儲存，請分批提交。',
    en: 'A batch holds at most {max} behaviour events; nothing was stored. Send it in smaller batches.',
  }),
  SATISFACTION_SETTINGS_INVALID: entry(40822, 200, {
    'zh-CN': '满意度问题须有 1 到 200 个字符的提问，以及 2 到 5 个选项（分数 1 到 5 不重复，名称 1 到 20 个字符）。',
    'zh-TW': '滿意度問題須有 1 到 200 個字元的提問，以及 2 到 5 個選項（分數 1 到 5 不重複，名稱 1 到 20 個字元）。',
    en: 'The satisfaction question needs a text of 1 to 200 characters and 2 to 5 options (different scores from 1 to 5, labels of 1 to 20 characters).',
  }),
  /** Activation events (docs/user-profiles.md, Activation events): 40840–40859. */
  ACTIVATION_NAME_REQUIRED: entry(40840, 200, {
    'zh-CN': '请填写名称。',
    'zh-TW': '請填寫名稱。',
    en: 'Enter a name.',
  }),
  ACTIVATION_NAME_TOO_LONG: entry(40841, 200, {
    'zh-CN': '名称太长：模板名称最多 30 个字符，活动名称最多 50 个字符。',
    'zh-TW': '名稱太長：範本名稱最多 30 個字元，活動名稱最多 50 個字元。',
    en: 'The name is too long: a template name has at most 30 characters, an event name at most 50.',
  }),
  ACTIVATION_TEMPLATE_NAME_TAKEN: entry(40842, 200, {
    'zh-CN': '本场景已有同名的模板，模板名称不能重复。',
    'zh-TW': '本場景已有同名的範本，範本名稱不能重複。',
    en: 'This scene already has a template with this name; template names must be unique.',
  }),
  ACTIVATION_BODY_REQUIRED: entry(40843, 200, {
    'zh-CN': '请填写消息内容（智能体模式下为给智能体的说明）。',
    'zh-TW': '請填寫訊息內容（智慧體模式下為給智慧體的說明）。',
    en: 'Enter the message (for the agent mode, the instruction to the agent).',
  }),
  ACTIVATION_BODY_TOO_LONG: entry(40844, 200, {
    'zh-CN': '消息内容最多 600 个字符。',
    'zh-TW': '訊息內容最多 600 個字元。',
    en: 'The message may have at most 600 characters.',
  }),
  ACTIVATION_VARIABLES_UNKNOWN: entry(40845, 200, {
    'zh-CN':
      '这些变量不是本场景的字段：{variables}。可用的变量：{{customer_name}} 和各字段名称，如 {{城市}}；可写默认值，如 {{城市|您所在的城市}}。',
    'zh-TW':
      '這些變數不是本場景的欄位：{variables}。可用的變數：{{customer_name}} 和各欄位名稱，如 {{城市}}；可寫預設值，如 {{城市|您所在的城市}}。',
    en: 'These variables are not fields of this scene: {variables}. Use {{customer_name}} or a field name such as {{city}}; add a fallback like {{city|your city}}.',
  }),
  ACTIVATION_VARIABLES_EMPTY: entry(40846, 200, {
    'zh-CN': '这位客户没有这些字段的内容，且变量没有默认值：{variables}。发送时将跳过这位客户。',
    'zh-TW': '這位客戶沒有這些欄位的內容，且變數沒有預設值：{variables}。發送時將略過這位客戶。',
    en: 'This customer has no value for these variables, and they have no fallback: {variables}. Sending would skip this customer.',
  }),
  ACTIVATION_AUDIENCE_EMPTY: entry(40847, 200, {
    'zh-CN': '没有符合条件的客户，活动没有可发送的对象。',
    'zh-TW': '沒有符合條件的客戶，活動沒有可發送的對象。',
    en: 'No customer matches: the event would have no one to send to.',
  }),
  ACTIVATION_AUDIENCE_TOO_LARGE: entry(40848, 200, {
    'zh-CN': '符合条件的客户超过 {max} 位（约 {count} 位），一次活动最多 {max} 位；请加筛选条件，分几次发送。',
    'zh-TW': '符合條件的客戶超過 {max} 位（約 {count} 位），一次活動最多 {max} 位；請加篩選條件，分幾次發送。',
    en: 'More than {max} customers match (about {count}), but one event reaches at most {max}; narrow the filters and send in several events.',
  }),
  ACTIVATION_SEND_AT_INVALID: entry(40849, 200, {
    'zh-CN': '发送时间须在现在到 90 天之内。',
    'zh-TW': '發送時間須在現在到 90 天之內。',
    en: 'The send time must be between now and 90 days from now.',
  }),
  ACTIVATION_NO_MODEL: entry(40850, 200, {
    'zh-CN': '智能体模式需要模型：请先在本场景的回复设置中选择一个智能体。',
    'zh-TW': '智慧體模式需要模型：請先在本場景的回覆設定中選擇一個智慧體。',
    en: "The agent mode needs a model: choose an agent in this scene's reply settings first.",
  }),
  ACTIVATION_EVENT_FINISHED: entry(40851, 200, {
    'zh-CN': '这个活动已经结束或已取消，不能再取消。',
    'zh-TW': '這個活動已經結束或已取消，不能再取消。',
    en: 'This event has already finished or been cancelled.',
  }),
  ACTIVATION_MODEL_FAILED: entry(40852, 200, {
    'zh-CN': '智能体没能写出消息：{reason}',
    'zh-TW': '智慧體沒能寫出訊息：{reason}',
    en: 'The agent could not write the message: {reason}',
  }),
  /** Reports (docs/user-profiles.md, Reports): a custom range is bounded so a chart stays readable. */
  PROFILE_REPORT_RANGE_TOO_LONG: entry(40860, 200, {
    'zh-CN': '报表的时间范围最多 {max} 天；请缩短范围。',
    'zh-TW': '報表的時間範圍最多 {max} 天；請縮短範圍。',
    en: 'A report covers at most {max} days; choose a shorter range.',
  }),
} as const;
