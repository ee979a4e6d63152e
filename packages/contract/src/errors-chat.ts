import type { Language } from './languages.ts';

// The chat-history codes of the error catalogue (40500–40599), kept apart like the workflow ones.
// errors.ts merges them into ERRORS; codes are stable: never renumber one.
const entry = <C extends number>(code: C, httpStatus: number, msg: Record<Language, string>) => ({
  code,
  httpStatus,
  msg,
});

export const CHAT_ERRORS = {
  CHAT_SCENE_INVALID: entry(40500, 200, {
    'zh-CN': '当前场景没有聊天记录，请在页面顶部选择一个客服场景。',
    'zh-TW': '目前場景沒有聊天記錄，請在頁面頂部選擇一個客服場景。',
    en: 'This scene has no chat history. Pick a customer-service scene at the top of the page.',
  }),
  CHAT_CONVERSATION_NOT_FOUND: entry(40501, 200, {
    'zh-CN': '该会话不存在，或不属于当前场景。',
    'zh-TW': '此會話不存在，或不屬於目前場景。',
    en: 'This conversation does not exist or belongs to another scene.',
  }),
  CHAT_TIME_RANGE_INVALID: entry(40502, 200, {
    'zh-CN': '自定义时间范围需要开始和结束时间，且开始不能晚于结束。',
    'zh-TW': '自訂時間範圍需要開始和結束時間，且開始不能晚於結束。',
    en: 'A custom time range needs a start and an end, and the start cannot be after the end.',
  }),
  CHAT_KEYWORD_TOO_LONG: entry(40503, 200, {
    'zh-CN': '关键词不能超过 100 个字符。',
    'zh-TW': '關鍵字不能超過 100 個字元。',
    en: 'The keyword can be at most 100 characters.',
  }),
  CHAT_URL_INVALID: entry(40504, 200, {
    'zh-CN': '链接必须以 http:// 或 https:// 开头，且不能包含空格。',
    'zh-TW': '連結必須以 http:// 或 https:// 開頭，且不能包含空格。',
    en: 'A link must start with http:// or https:// and contain no spaces.',
  }),
  CHAT_INGEST_NOT_FOUND: entry(40505, 404, {
    'zh-CN': '该接收地址不存在或已停用。',
    'zh-TW': '此接收位址不存在或已停用。',
    en: 'This ingest address does not exist or is turned off.',
  }),
  CHAT_INGEST_SIGNATURE_INVALID: entry(40506, 401, {
    'zh-CN': '签名缺失或不正确。',
    'zh-TW': '簽章缺少或不正確。',
    en: 'The signature is missing or wrong.',
  }),
  CHAT_INGEST_SIGNATURE_EXPIRED: entry(40507, 401, {
    'zh-CN': '签名的时间戳与服务器时间相差超过 5 分钟。',
    'zh-TW': '簽章的時間戳記與伺服器時間相差超過 5 分鐘。',
    en: "The signature's timestamp is more than 5 minutes from the server's time.",
  }),
  CHAT_INGEST_REPLAYED: entry(40508, 409, {
    'zh-CN': '该请求已被接收过，同一个签名只接收一次。',
    'zh-TW': '此請求已被接收過，同一個簽章只接收一次。',
    en: 'This request was already received; a signed request is accepted once.',
  }),
  CHAT_INGEST_BODY_INVALID: entry(40509, 400, {
    'zh-CN': '请求内容无效，整批未保存：{detail}',
    'zh-TW': '請求內容無效，整批未儲存：{detail}',
    en: 'The body is not valid and nothing of the batch was stored: {detail}',
  }),
  CHAT_INGEST_BATCH_TOO_LARGE: entry(40510, 413, {
    'zh-CN': '一次最多提交 {max} 条消息、4 MB，整批未保存，请分批提交。',
    'zh-TW': '一次最多提交 {max} 則訊息、4 MB，整批未儲存，請分批提交。',
    en: 'A batch holds at most {max} messages and 4 MB; nothing was stored. Send it in smaller batches.',
  }),
  CHAT_WECOM_SCENE_UNSUPPORTED: entry(40511, 200, {
    'zh-CN': '企业微信客服只能接入“企业微信客服”场景，请在页面顶部切换场景。',
    'zh-TW': '企業微信客服只能接入「企業微信客服」場景，請在頁面頂部切換場景。',
    en: 'WeCom customer service connects to the WeCom customer-service scene only. Switch scenes at the top of the page.',
  }),
  CHAT_WECOM_CORP_ID_INVALID: entry(40512, 200, {
    'zh-CN': '企业 ID 格式不正确，请在企业微信管理后台“我的企业”中复制。',
    'zh-TW': '企業 ID 格式不正確，請在企業微信管理後台「我的企業」中複製。',
    en: 'The corp ID is not valid. Copy it from My Company in the WeCom admin console.',
  }),
  CHAT_WECOM_SECRET_INVALID: entry(40513, 200, {
    'zh-CN': 'Secret 格式不正确，请在微信客服的“API”中复制。',
    'zh-TW': 'Secret 格式不正確，請在微信客服的「API」中複製。',
    en: "The secret is not valid. Copy it from the customer-service app's API page in WeCom.",
  }),
  CHAT_WECOM_TOKEN_INVALID: entry(40514, 200, {
    'zh-CN': 'Token 只能由英文字母和数字组成，最多 32 位。',
    'zh-TW': 'Token 只能由英文字母和數字組成，最多 32 位。',
    en: 'The token may contain English letters and digits only, at most 32.',
  }),
  CHAT_WECOM_AES_KEY_INVALID: entry(40515, 200, {
    'zh-CN': 'EncodingAESKey 必须是 43 位英文字母和数字。',
    'zh-TW': 'EncodingAESKey 必須是 43 位英文字母和數字。',
    en: 'The EncodingAESKey must be 43 letters and digits.',
  }),
  CHAT_WECOM_CREDENTIALS_REFUSED: entry(40516, 200, {
    'zh-CN': '企业微信拒绝了这组企业 ID 和 Secret（{detail}），请检查后重试。',
    'zh-TW': '企業微信拒絕了這組企業 ID 和 Secret（{detail}），請檢查後重試。',
    en: 'WeCom refused this corp ID and secret ({detail}). Check them and try again.',
  }),
  CHAT_WECOM_UNREACHABLE: entry(40517, 200, {
    'zh-CN': '暂时无法连接企业微信，请稍后重试。',
    'zh-TW': '暫時無法連線企業微信，請稍後重試。',
    en: 'WeCom cannot be reached right now. Try again later.',
  }),
  CHAT_OFFICE_HOURS_INVALID: entry(40518, 200, {
    'zh-CN': '办公时间需为 HH:MM 格式，例如 09:00。',
    'zh-TW': '辦公時間需為 HH:MM 格式，例如 09:00。',
    en: 'Office hours take the form HH:MM, for example 09:00.',
  }),
  CHAT_KEYWORD_REPLY_INVALID: entry(40519, 200, {
    'zh-CN': '关键词回复需要至少一个关键词和回复内容。',
    'zh-TW': '關鍵字回覆需要至少一個關鍵字和回覆內容。',
    en: 'A keyword reply needs at least one keyword and a reply.',
  }),
  CHAT_REPLY_AGENT_REQUIRED: entry(40520, 200, {
    'zh-CN': '请先在“回复设置”中选择一个智能体：AI 全托管、AI 辅助、AI 草稿和 AI 回复都由它来回答。',
    'zh-TW': '請先在「回覆設定」中選擇一個智能體：AI 全託管、AI 輔助、AI 草稿和 AI 回覆都由它來回答。',
    en: 'Pick an agent in Reply settings first: it answers for AI full, AI assisted, AI drafts and AI replies.',
  }),
  CHAT_REPLY_AGENT_NOT_FOUND: entry(40521, 200, {
    'zh-CN': '该智能体不存在或已被删除，请重新选择。',
    'zh-TW': '此智能體不存在或已被刪除，請重新選擇。',
    en: 'This agent does not exist or was deleted. Pick another.',
  }),
  CHAT_REPLY_UNSUPPORTED: entry(40522, 200, {
    'zh-CN': '此场景尚未接入可发送消息的渠道（企业微信客服），只能查看聊天记录。',
    'zh-TW': '此場景尚未接入可傳送訊息的管道（企業微信客服），只能檢視聊天記錄。',
    en: 'This scene has no channel that can send (WeCom customer service), so its chats are read-only.',
  }),
  CHAT_REPLY_WINDOW_CLOSED: entry(40523, 200, {
    'zh-CN': '客户最后一条消息已超过 48 小时，企业微信不允许再回复，需等待客户再次发消息。',
    'zh-TW': '客戶最後一則訊息已超過 48 小時，企業微信不允許再回覆，需等待客戶再次傳訊息。',
    en: "The customer's last message is more than 48 hours old; WeCom allows no reply until they write again.",
  }),
  CHAT_REPLY_LIMIT_REACHED: entry(40524, 200, {
    'zh-CN': '客户回复前最多只能连续发送 5 条消息（企业微信的限制）。',
    'zh-TW': '客戶回覆前最多只能連續傳送 5 則訊息（企業微信的限制）。',
    en: 'At most 5 messages can be sent before the customer writes again (a WeCom limit).',
  }),
  CHAT_MESSAGE_EMPTY: entry(40525, 200, {
    'zh-CN': '请输入要发送的内容。',
    'zh-TW': '請輸入要傳送的內容。',
    en: 'Type something to send.',
  }),
  CHAT_MESSAGE_TOO_LONG: entry(40526, 200, {
    'zh-CN': '一条消息最多 680 个字符，请分条发送。',
    'zh-TW': '一則訊息最多 680 個字元，請分則傳送。',
    en: 'A message can be at most 680 characters. Send it in parts.',
  }),
  CHAT_AI_FAILED: entry(40527, 200, {
    'zh-CN': '智能体未能生成回复：{detail}',
    'zh-TW': '智能體未能產生回覆：{detail}',
    en: 'The agent could not answer: {detail}',
  }),
} as const;
