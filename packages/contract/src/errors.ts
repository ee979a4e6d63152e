import { ACCOUNT_ERRORS } from './errors-account.ts';
import { BILLING_ERRORS } from './errors-billing.ts';
import { CHAT_ERRORS } from './errors-chat.ts';
import { KNOWLEDGE_ERRORS } from './errors-knowledge.ts';
import { MCP_ERRORS } from './errors-mcp.ts';
import { MEDIA_ERRORS } from './errors-media.ts';
import { PROFILE_ERRORS } from './errors-profile.ts';
import { WORKFLOW_ERRORS } from './errors-workflow.ts';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from './languages.ts';

/**
 * The one catalogue of error codes. Every business failure the server can answer with is here,
 * with its message in each supported language. Codes are stable: never renumber one.
 */
export { DEFAULT_LANGUAGE, LANGUAGES, type Language } from './languages.ts';

type Messages = Record<Language, string>;

const entry = <C extends number>(code: C, httpStatus: number, msg: Messages) => ({ code, httpStatus, msg });

const CORE_ERRORS = {
  LOGIN_EXPIRED: entry(10001, 200, {
    'zh-CN': '登录已过期，请重新登录。',
    'zh-TW': '登入已過期，請重新登入。',
    en: 'Login has expired, please log in again.',
  }),
  SPACE_UNAVAILABLE: entry(16023, 200, {
    'zh-CN': '当前空间不存在或您已不是其成员。',
    'zh-TW': '目前空間不存在或您已不是其成員。',
    en: 'This space no longer exists or you are no longer a member.',
  }),
  BAD_REQUEST: entry(40000, 200, {
    'zh-CN': '请求参数有误：{detail}',
    'zh-TW': '請求參數有誤：{detail}',
    en: 'Invalid request: {detail}',
  }),
  MALFORMED_JSON: entry(40012, 400, {
    'zh-CN': '请求体不是有效的 JSON。',
    'zh-TW': '請求內容不是有效的 JSON。',
    en: 'The request body is not valid JSON.',
  }),
  PAYLOAD_TOO_LARGE: entry(40013, 413, {
    'zh-CN': '请求体过大。',
    'zh-TW': '請求內容過大。',
    en: 'The request body is too large.',
  }),
  TEXT_UNSTORABLE: entry(40014, 200, {
    'zh-CN': '内容包含无法保存的字符（如空字符或不完整的表情符号），请删除后重试。',
    'zh-TW': '內容包含無法儲存的字元（如空字元或不完整的表情符號），請刪除後重試。',
    en: 'The text contains characters that cannot be stored (such as a null character or half an emoji). Remove them and try again.',
  }),
  API_KEY_CHARACTERS: entry(40076, 200, {
    'zh-CN': '密钥只能包含英文字母、数字和符号，不能有空格、中文或表情符号。',
    'zh-TW': '金鑰只能包含英文字母、數字和符號，不能有空格、中文或表情符號。',
    en: 'A key may contain only Latin letters, digits and symbols: no spaces, Chinese characters or emoji.',
  }),
  MODEL_NAME_REQUIRED: entry(40070, 200, {
    'zh-CN': '模型名称不能为空。',
    'zh-TW': '模型名稱不能為空。',
    en: 'Model name cannot be empty.',
  }),
  MODEL_VERSION_REQUIRED: entry(40071, 200, {
    'zh-CN': '模型版本不能为空。',
    'zh-TW': '模型版本不能為空。',
    en: 'Model version cannot be empty.',
  }),
  BASE_URL_REQUIRED: entry(40072, 200, {
    'zh-CN': '请求地址不能为空。',
    'zh-TW': '請求位址不能為空。',
    en: 'Request address cannot be empty.',
  }),
  BASE_URL_INVALID: entry(40073, 200, {
    'zh-CN': '请求地址必须是 http:// 或 https:// 开头的有效网址。',
    'zh-TW': '請求位址必須是 http:// 或 https:// 開頭的有效網址。',
    en: 'The request address must be a valid http:// or https:// URL.',
  }),
  API_KEY_REQUIRED: entry(40074, 200, {
    'zh-CN': '密钥不能为空。',
    'zh-TW': '金鑰不能為空。',
    en: 'Key cannot be empty.',
  }),
  ADDRESS_BLOCKED: entry(40075, 200, {
    'zh-CN': '出于安全原因，不允许访问内网或本机地址。如需使用本地模型，请联系服务器管理员允许内网模型地址。',
    'zh-TW': '基於安全原因，不允許存取內網或本機位址。如需使用本機模型，請聯絡伺服器管理員允許內網模型位址。',
    en: 'For safety, private and local addresses are blocked. To use a local model, ask whoever runs this server to allow private model addresses.',
  }),
  CUSTOM_TITLE_INVALID: entry(40080, 200, {
    'zh-CN': '请填写需求标题（最多 100 个字符）。',
    'zh-TW': '請填寫需求標題（最多 100 個字元）。',
    en: 'Please enter a title (at most 100 characters).',
  }),
  CUSTOM_REQUIREMENTS_INVALID: entry(40081, 200, {
    'zh-CN': '请用 10 到 5000 个字符描述您的需求。',
    'zh-TW': '請用 10 到 5000 個字元描述您的需求。',
    en: 'Please describe your requirements in 10 to 5,000 characters.',
  }),
  CUSTOM_CONTACT_NAME_INVALID: entry(40082, 200, {
    'zh-CN': '请填写联系人姓名（最多 50 个字符）。',
    'zh-TW': '請填寫聯絡人姓名（最多 50 個字元）。',
    en: 'Please enter a contact name (at most 50 characters).',
  }),
  CUSTOM_CONTACT_REQUIRED: entry(40083, 200, {
    'zh-CN': '请至少填写手机号或邮箱中的一项，以便我们联系您。',
    'zh-TW': '請至少填寫手機號碼或電子郵件其中一項，以便我們聯絡您。',
    en: 'Please enter a mobile number or an email address so we can reach you.',
  }),
  CUSTOM_EMAIL_INVALID: entry(40084, 200, {
    'zh-CN': '请输入有效的邮箱地址。',
    'zh-TW': '請輸入有效的電子郵件地址。',
    en: 'Please enter a valid email address.',
  }),
  CUSTOM_DATE_INVALID: entry(40085, 200, {
    'zh-CN': '期望日期需为有效日期，且不能早于今天。',
    'zh-TW': '期望日期需為有效日期，且不能早於今天。',
    en: 'The expected date must be a valid date, today or later.',
  }),
  ATTACHMENT_INVALID: entry(40086, 200, {
    'zh-CN': '附件仅支持 PDF、DOCX、XLSX、PNG 或 JPG 文件。',
    'zh-TW': '附件僅支援 PDF、DOCX、XLSX、PNG 或 JPG 檔案。',
    en: 'Attachments must be PDF, DOCX, XLSX, PNG or JPG files.',
  }),
  ATTACHMENT_TOO_LARGE: entry(40087, 413, {
    'zh-CN': '单个附件不能超过 10 MB。',
    'zh-TW': '單一附件不能超過 10 MB。',
    en: 'Each attachment must be 10 MB or smaller.',
  }),
  ATTACHMENTS_TOO_MANY: entry(40088, 200, {
    'zh-CN': '最多添加 5 个附件。',
    'zh-TW': '最多新增 5 個附件。',
    en: 'You can add at most 5 attachments.',
  }),
  CUSTOM_STATUS_CONFLICT: entry(40089, 200, {
    'zh-CN': '该需求当前为「{from}」，不能变更为「{to}」。请刷新后查看最新状态。',
    'zh-TW': '該需求目前為「{from}」，不能變更為「{to}」。請重新整理後查看最新狀態。',
    en: 'This request is now “{from}” and cannot change to “{to}”. Refresh to see its latest status.',
  }),
  AGENT_NAME_REQUIRED: entry(40090, 200, {
    'zh-CN': '智能体名称不能为空。',
    'zh-TW': '智能體名稱不能為空。',
    en: 'Agent name cannot be empty.',
  }),
  AGENT_NAME_TOO_LONG: entry(40091, 200, {
    'zh-CN': '智能体名称最多 50 个字符。',
    'zh-TW': '智能體名稱最多 50 個字元。',
    en: 'Agent name can be at most 50 characters.',
  }),
  MESSAGE_REQUIRED: entry(40092, 200, {
    'zh-CN': '请输入消息。',
    'zh-TW': '請輸入訊息。',
    en: 'Please type a message.',
  }),
  NO_MODEL_KEY: entry(40093, 200, {
    'zh-CN': '还没有可用的对话模型密钥，需先在“模型密钥”中添加。',
    'zh-TW': '還沒有可用的對話模型金鑰，需先在「模型金鑰」中新增。',
    en: 'There is no chat model key yet: one must first be added under LLM API keys.',
  }),
  MODEL_CALL_FAILED: entry(40094, 200, {
    'zh-CN': '模型调用失败：{detail}',
    'zh-TW': '模型呼叫失敗：{detail}',
    en: 'The model call failed: {detail}',
  }),
  NOTHING_TO_REGENERATE: entry(40095, 200, {
    'zh-CN': '没有可以重新生成的回答。',
    'zh-TW': '沒有可以重新產生的回答。',
    en: 'There is no answer to regenerate.',
  }),
  SHARE_NOT_FOUND: entry(40096, 200, {
    'zh-CN': '分享链接无效或已关闭。',
    'zh-TW': '分享連結無效或已關閉。',
    en: 'This share link is not valid or was turned off.',
  }),
  API_KEY_INVALID: entry(40097, 401, {
    'zh-CN': 'API 密钥无效或已撤销。',
    'zh-TW': 'API 金鑰無效或已撤銷。',
    en: 'The API key is not valid or was revoked.',
  }),
  FORBIDDEN: entry(40300, 200, {
    'zh-CN': '您没有执行此操作的权限。',
    'zh-TW': '您沒有執行此操作的權限。',
    en: 'You do not have permission to do this.',
  }),
  NOT_FOUND: entry(40400, 200, {
    'zh-CN': '内容不存在或已被删除。',
    'zh-TW': '內容不存在或已被刪除。',
    en: 'It does not exist or has been deleted.',
  }),
  ROUTE_NOT_FOUND: entry(40404, 404, {
    'zh-CN': '接口不存在。',
    'zh-TW': '介面不存在。',
    en: 'No such API endpoint.',
  }),
  RATE_LIMITED: entry(42900, 429, {
    'zh-CN': '请求过于频繁，请稍后再试。',
    'zh-TW': '請求過於頻繁，請稍後再試。',
    en: 'Too many requests. Please slow down.',
  }),
  SYSTEM_ERROR: entry(50000, 500, {
    'zh-CN': '系统错误',
    'zh-TW': '系統錯誤',
    en: 'System error',
  }),
  SERVER_RESTARTING: entry(50300, 503, {
    'zh-CN': '服务正在重启，已收到的内容已保存，请稍后重试。',
    'zh-TW': '服務正在重新啟動，已收到的內容已儲存，請稍後重試。',
    en: 'The server is restarting. What arrived so far is kept; please try again in a moment.',
  }),
} as const;

export const ERRORS = {
  ...CORE_ERRORS,
  ...ACCOUNT_ERRORS,
  ...KNOWLEDGE_ERRORS,
  ...WORKFLOW_ERRORS,
  ...CHAT_ERRORS,
  ...BILLING_ERRORS,
  ...MEDIA_ERRORS,
  ...MCP_ERRORS,
  ...PROFILE_ERRORS,
} as const;

export type ErrorKey = keyof typeof ERRORS;
export type ErrorCode = (typeof ERRORS)[ErrorKey]['code'];

export const isErrorKey = (value: string): value is ErrorKey => Object.hasOwn(ERRORS, value);

/** A problem (or any message) named by a catalogue key, as a list of them carries it. */
export interface ListedMessage {
  code: string;
  params: Record<string, string | number>;
}

/** How many listed messages a message names before it says how many more there are. */
export const LISTED_MESSAGES_MAX = 5;

/**
 * A list of messages as one parameter of another message (WORKFLOW_INVALID's `{problems}`). It
 * travels as JSON text, like every other parameter, so a stored error keeps it, and each reader
 * gets it in their own language when the message is formatted.
 */
export const listedMessages = (items: ListedMessage[]) =>
  JSON.stringify(items.slice(0, LISTED_MESSAGES_MAX + 1).map(({ code, params }) => ({ code, params })));

const LIST_WORDS: Record<Language, { gap: string; more: (n: number) => string; none: string }> = {
  'zh-CN': { gap: '', more: (n) => `另有 ${n} 个问题。`, none: '请在编辑器中查看。' },
  'zh-TW': { gap: '', more: (n) => `另有 ${n} 個問題。`, none: '請在編輯器中查看。' },
  en: { gap: ' ', more: (n) => `And ${n} more.`, none: 'open it in the editor to see them.' },
};

/** `{problems}` of WORKFLOW_INVALID: the first few problems' own messages, then how many more. */
function renderList(value: string | number | undefined, language: Language, total: number): string {
  const words = LIST_WORDS[language];
  let items: ListedMessage[] = [];
  try {
    const parsed: unknown = JSON.parse(String(value ?? '[]'));
    if (Array.isArray(parsed)) items = parsed as ListedMessage[];
  } catch {
    items = [];
  }
  const shown = items.filter((item) => typeof item?.code === 'string').slice(0, LISTED_MESSAGES_MAX);
  if (shown.length === 0) return words.none;
  const texts = shown.map((item) =>
    isErrorKey(item.code) ? formatMessage(item.code, language, item.params ?? {}) : item.code,
  );
  const more = Math.max(total, items.length) - shown.length;
  return [...texts, ...(more > 0 ? [words.more(more)] : [])].join(words.gap);
}

/**
 * Why a model call failed, by the gateway's failure kind (TEST_FAILURE_KINDS of model-key.ts), in
 * words: MODEL_CALL_FAILED carries the kind and shows it in the reader's language, never the
 * class name ("server_error").
 */
const MODEL_FAILURES: Record<string, Messages> = {
  auth: { 'zh-CN': '密钥无效或无权限', 'zh-TW': '金鑰無效或無權限', en: 'the provider refused the key' },
  model_not_found: { 'zh-CN': '模型不存在', 'zh-TW': '模型不存在', en: 'the model was not found' },
  unreachable: {
    'zh-CN': '无法连接到模型服务地址',
    'zh-TW': '無法連線到模型服務位址',
    en: "the model's address could not be reached",
  },
  blocked_address: {
    'zh-CN': '模型地址指向内网或本机，已被拦截',
    'zh-TW': '模型位址指向內網或本機，已被攔截',
    en: "the model's address is private and blocked",
  },
  timeout: { 'zh-CN': '等待模型响应超时', 'zh-TW': '等待模型回應逾時', en: 'the model took too long to answer' },
  rate_limited: {
    'zh-CN': '调用过于频繁，服务商已限流',
    'zh-TW': '呼叫過於頻繁，服務商已限流',
    en: 'the provider is limiting the rate of calls',
  },
  server_error: {
    'zh-CN': '模型服务商出错，请稍后再试',
    'zh-TW': '模型服務商出錯，請稍後再試',
    en: 'the provider had an internal error; try again later',
  },
  bad_response: {
    'zh-CN': '模型返回的内容无法识别',
    'zh-TW': '模型回傳的內容無法辨識',
    en: "the model's answer could not be read",
  },
};

/**
 * What a node still needs, by the engine's short English field name (validate.ts, graph-check.ts),
 * as the node's panel calls it: a problem never names an internal field ("template").
 */
const NODE_FIELDS: Record<string, Messages> = {
  agent: { 'zh-CN': '智能体', 'zh-TW': '智能體', en: 'the agent' },
  workflow: { 'zh-CN': '子工作流', 'zh-TW': '子工作流', en: 'the sub-workflow' },
  'MCP tool': { 'zh-CN': 'MCP 工具', 'zh-TW': 'MCP 工具', en: 'the MCP tool' },
  code: { 'zh-CN': '代码', 'zh-TW': '程式碼', en: 'the code' },
  URL: { 'zh-CN': '请求地址', 'zh-TW': '請求位址', en: 'the request URL' },
  'knowledge bases': { 'zh-CN': '知识库', 'zh-TW': '知識庫', en: 'the knowledge bases' },
  template: { 'zh-CN': '模板内容', 'zh-TW': '範本內容', en: 'the template text' },
  text: { 'zh-CN': '回复内容', 'zh-TW': '回覆內容', en: 'the reply text' },
  prompt: { 'zh-CN': '提示词', 'zh-TW': '提示詞', en: 'the prompt' },
  parameters: { 'zh-CN': '要提取的参数', 'zh-TW': '要擷取的參數', en: 'the parameters to extract' },
  classes: { 'zh-CN': '分类名称', 'zh-TW': '分類名稱', en: 'the class names' },
  conditions: { 'zh-CN': '条件', 'zh-TW': '條件', en: 'the conditions' },
  body: { 'zh-CN': '循环内的节点', 'zh-TW': '迴圈內的節點', en: 'the nodes inside it' },
};

/** Parameters a message renders itself, in the reader's language, from what the parameter holds. */
const RENDERED: Partial<Record<ErrorKey, Record<string, RenderParam>>> = {
  WORKFLOW_INVALID: { problems: (value, language, params) => renderList(value, language, Number(params.count) || 0) },
  WORKFLOW_NODE_INCOMPLETE: {
    field: (value, language) =>
      typeof value === 'string' && Object.hasOwn(NODE_FIELDS, value)
        ? NODE_FIELDS[value][language]
        : String(value ?? ''),
  },
  // A failure kind in words; any other detail (a vendor's own message) as it is.
  MODEL_CALL_FAILED: {
    detail: (value, language) =>
      typeof value === 'string' && Object.hasOwn(MODEL_FAILURES, value)
        ? MODEL_FAILURES[value][language]
        : String(value ?? ''),
  },
};
type RenderParam = (
  value: string | number | undefined,
  language: Language,
  params: Record<string, string | number>,
) => string;

/** Fills `{name}` placeholders; unknown placeholders are left as they are. */
export function formatMessage(key: ErrorKey, language: Language, params: Record<string, string | number> = {}): string {
  const rendered = RENDERED[key];
  return ERRORS[key].msg[language].replace(/\{(\w+)\}/g, (whole, name: string) => {
    const render = rendered?.[name];
    if (render) return render(params[name], language, params);
    return name in params ? String(params[name]) : whole;
  });
}

export function parseLanguage(value: unknown): Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value)
    ? (value as Language)
    : DEFAULT_LANGUAGE;
}
