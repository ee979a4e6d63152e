import { BILLING_ERRORS } from './errors-billing.ts';
import { CHAT_ERRORS } from './errors-chat.ts';
import { MEDIA_ERRORS } from './errors-media.ts';
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
  PHONE_REQUIRED: entry(40001, 200, {
    'zh-CN': '请输入手机号。',
    'zh-TW': '請輸入手機號碼。',
    en: 'Please enter your phone number.',
  }),
  PHONE_INVALID: entry(40002, 200, {
    'zh-CN': '请输入正确的 11 位中国大陆手机号。',
    'zh-TW': '請輸入正確的 11 位中國大陸手機號碼。',
    en: 'Please enter a valid 11-digit mainland China mobile number.',
  }),
  CODE_REQUIRED: entry(40003, 200, {
    'zh-CN': '请输入验证码。',
    'zh-TW': '請輸入驗證碼。',
    en: 'Please enter the verification code.',
  }),
  CODE_INVALID: entry(40004, 200, {
    'zh-CN': '验证码错误，请重新输入。',
    'zh-TW': '驗證碼錯誤，請重新輸入。',
    en: 'The verification code is incorrect.',
  }),
  CODE_EXPIRED: entry(40005, 200, {
    'zh-CN': '验证码已失效，请重新获取。',
    'zh-TW': '驗證碼已失效，請重新取得。',
    en: 'The verification code has expired or was already used. Please request a new one.',
  }),
  CODE_ATTEMPTS_EXCEEDED: entry(40006, 200, {
    'zh-CN': '验证码错误次数过多，请重新获取。',
    'zh-TW': '驗證碼錯誤次數過多，請重新取得。',
    en: 'Too many wrong attempts. Please request a new code.',
  }),
  SMS_COOLDOWN: entry(40007, 200, {
    'zh-CN': '发送过于频繁，请 {seconds} 秒后再试。',
    'zh-TW': '傳送過於頻繁，請 {seconds} 秒後再試。',
    en: 'Please wait {seconds} seconds before requesting another code.',
  }),
  /** No longer answered: a number is slowed down (SMS_PHONE_THROTTLED), never shut out for the day. */
  SMS_PHONE_DAILY_LIMIT: entry(40008, 200, {
    'zh-CN': '该手机号今日获取验证码次数已达上限，请明天再试。',
    'zh-TW': '此手機號碼今日取得驗證碼次數已達上限，請明天再試。',
    en: 'This number has reached today’s limit for verification codes. Please try again tomorrow.',
  }),
  SMS_IP_DAILY_LIMIT: entry(40009, 200, {
    'zh-CN': '当前网络今日获取验证码次数已达上限，请明天再试。',
    'zh-TW': '目前網路今日取得驗證碼次數已達上限，請明天再試。',
    en: 'Too many verification codes were requested from your network today. Please try again tomorrow.',
  }),
  SMS_SEND_FAILED: entry(40010, 200, {
    'zh-CN': '短信发送失败，请稍后重试。',
    'zh-TW': '簡訊傳送失敗，請稍後重試。',
    en: 'The text message could not be sent. Please try again later.',
  }),
  SMS_PHONE_THROTTLED: entry(40011, 200, {
    'zh-CN':
      '该手机号近期已多次获取验证码。最新的验证码在收到后 5 分钟内仍可使用；如需新的验证码，请 {seconds} 秒后再试。',
    'zh-TW':
      '此手機號碼近期已多次取得驗證碼。最新的驗證碼在收到後 5 分鐘內仍可使用；如需新的驗證碼，請 {seconds} 秒後再試。',
    en: 'Several codes were sent to this number recently. The latest code still works for 5 minutes after it arrived; for a new one, wait {seconds} seconds.',
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
  WECHAT_QR_EXPIRED: entry(40020, 200, {
    'zh-CN': '二维码已过期，请刷新后重新扫码。',
    'zh-TW': '二維碼已過期，請重新整理後再掃描。',
    en: 'This QR code has expired. Please refresh it and scan again.',
  }),
  WECHAT_NOT_SCANNED: entry(40021, 200, {
    'zh-CN': '尚未扫码确认，请先用微信扫码。',
    'zh-TW': '尚未掃碼確認，請先用微信掃描。',
    en: 'The QR code has not been scanned yet.',
  }),
  WECHAT_CODE_USED: entry(40022, 200, {
    'zh-CN': '该二维码已被使用，请刷新后重新扫码。',
    'zh-TW': '此二維碼已被使用，請重新整理後再掃描。',
    en: 'This QR code was already used. Please refresh it and scan again.',
  }),
  BIND_TOKEN_INVALID: entry(40023, 200, {
    'zh-CN': '绑定会话已过期，请重新扫码登录。',
    'zh-TW': '綁定工作階段已過期，請重新掃碼登入。',
    en: 'The phone binding session has expired. Please scan the QR code again.',
  }),
  PHONE_TAKEN: entry(40024, 200, {
    'zh-CN': '该手机号已绑定其他账号，未做任何合并。请改用短信验证码登录该账号。',
    'zh-TW': '此手機號碼已綁定其他帳號，未做任何合併。請改用簡訊驗證碼登入該帳號。',
    en: 'This phone number already belongs to another account; nothing was merged. Sign in to that account with an SMS code instead.',
  }),
  WECHAT_UNAVAILABLE: entry(40025, 200, {
    'zh-CN': '微信登录暂不可用，请稍后重试或使用短信登录。',
    'zh-TW': '微信登入暫不可用，請稍後重試或使用簡訊登入。',
    en: 'WeChat sign-in is unavailable right now. Try again later or sign in with an SMS code.',
  }),
  TEAM_NAME_REQUIRED: entry(40030, 200, {
    'zh-CN': '团队名称不能为空。',
    'zh-TW': '團隊名稱不能為空。',
    en: 'Team name cannot be empty.',
  }),
  TEAM_NAME_TOO_LONG: entry(40031, 200, {
    'zh-CN': '团队名称最多 50 个字符。',
    'zh-TW': '團隊名稱最多 50 個字元。',
    en: 'Team name can be at most 50 characters.',
  }),
  NICKNAME_REQUIRED: entry(40032, 200, {
    'zh-CN': '昵称不能为空。',
    'zh-TW': '暱稱不能為空。',
    en: 'Nickname cannot be empty.',
  }),
  NICKNAME_TOO_LONG: entry(40033, 200, {
    'zh-CN': '昵称最多 30 个字符。',
    'zh-TW': '暱稱最多 30 個字元。',
    en: 'Nickname can be at most 30 characters.',
  }),
  INVITE_NOT_FOUND: entry(40040, 200, {
    'zh-CN': '邀请链接无效，请向团队管理员索取新的链接。',
    'zh-TW': '邀請連結無效，請向團隊管理員索取新的連結。',
    en: 'This invite link is not valid. Ask a team admin for a new one.',
  }),
  INVITE_EXPIRED: entry(40041, 200, {
    'zh-CN': '邀请链接已过期，请向团队管理员索取新的链接。',
    'zh-TW': '邀請連結已過期，請向團隊管理員索取新的連結。',
    en: 'This invite link has expired. Ask a team admin for a new one.',
  }),
  INVITE_REVOKED: entry(40042, 200, {
    'zh-CN': '邀请链接已被撤销。',
    'zh-TW': '邀請連結已被撤銷。',
    en: 'This invite link was revoked.',
  }),
  INVITE_EXHAUSTED: entry(40043, 200, {
    'zh-CN': '邀请链接已被使用，无法再次加入。',
    'zh-TW': '邀請連結已被使用，無法再次加入。',
    en: 'This invite link has already been used.',
  }),
  CANNOT_MANAGE_MEMBER: entry(40045, 200, {
    'zh-CN': '您不能更改或移除创建者或其他管理员。',
    'zh-TW': '您不能變更或移除建立者或其他管理員。',
    en: 'You cannot change or remove the creator or another admin.',
  }),
  CREATOR_CANNOT_LEAVE: entry(40046, 200, {
    'zh-CN': '创建者需先将团队转让给其他成员，才能退出。',
    'zh-TW': '建立者需先將團隊轉讓給其他成員，才能退出。',
    en: 'Transfer the team to another member before you leave.',
  }),
  PERSONAL_SPACE_LOCKED: entry(40047, 200, {
    'zh-CN': '个人空间不能解散、退出或邀请他人。',
    'zh-TW': '個人空間不能解散、退出或邀請他人。',
    en: 'A personal space cannot be dissolved, left or shared.',
  }),
  DISSOLVE_BALANCE: entry(40048, 200, {
    'zh-CN': '团队仍有余额 {amount}，请确认放弃余额后再解散。',
    'zh-TW': '團隊仍有餘額 {amount}，請確認放棄餘額後再解散。',
    en: 'This team still has a balance of {amount}. Confirm that you give it up to dissolve the team.',
  }),
  DISSOLVE_CONFIRM_MISMATCH: entry(40049, 200, {
    'zh-CN': '请准确输入团队名称以确认解散。',
    'zh-TW': '請準確輸入團隊名稱以確認解散。',
    en: 'Type the team name exactly to confirm.',
  }),
  LAST_SIGN_IN_METHOD: entry(40051, 200, {
    'zh-CN': '账号没有绑定手机号，解绑微信后将无法登录。请先绑定手机号。',
    'zh-TW': '帳號沒有綁定手機號碼，解除微信綁定後將無法登入。請先綁定手機號碼。',
    en: 'Your account has no phone number, so unlinking WeChat would lock you out. Add a phone first.',
  }),
  WECHAT_TAKEN: entry(40052, 200, {
    'zh-CN': '该微信已绑定其他账号。',
    'zh-TW': '此微信已綁定其他帳號。',
    en: 'This WeChat account is linked to another account.',
  }),
  AVATAR_INVALID: entry(40053, 200, {
    'zh-CN': '头像仅支持 JPG 或 PNG 图片。',
    'zh-TW': '頭像僅支援 JPG 或 PNG 圖片。',
    en: 'The avatar must be a JPG or PNG image.',
  }),
  AVATAR_TOO_LARGE: entry(40054, 413, {
    'zh-CN': '头像不能超过 2 MB。',
    'zh-TW': '頭像不能超過 2 MB。',
    en: 'The avatar must be 2 MB or smaller.',
  }),
  PHONE_UNCHANGED: entry(40055, 200, {
    'zh-CN': '这已经是您的手机号。',
    'zh-TW': '這已經是您的手機號碼。',
    en: 'This is already your phone number.',
  }),
  TIMEZONE_INVALID: entry(40056, 200, {
    'zh-CN': '时区无效。',
    'zh-TW': '時區無效。',
    en: 'Unknown time zone.',
  }),
  ID_NUMBER_INVALID: entry(40060, 200, {
    'zh-CN': '请输入有效的 18 位居民身份证号码。',
    'zh-TW': '請輸入有效的 18 位居民身分證號碼。',
    en: 'Please enter a valid 18-character mainland resident ID number.',
  }),
  REAL_NAME_REQUIRED: entry(40061, 200, {
    'zh-CN': '请输入真实姓名。',
    'zh-TW': '請輸入真實姓名。',
    en: 'Please enter your legal name.',
  }),
  REAL_NAME_ALREADY_VERIFIED: entry(40062, 200, {
    'zh-CN': '您已完成实名认证。',
    'zh-TW': '您已完成實名認證。',
    en: 'Your real-name verification is already complete.',
  }),
  REAL_NAME_TOO_LONG: entry(40063, 200, {
    'zh-CN': '姓名最多 32 个字符。',
    'zh-TW': '姓名最多 32 個字元。',
    en: 'The name can be at most 32 characters.',
  }),
  REAL_NAME_PROVIDER_FAILED: entry(40064, 200, {
    'zh-CN': '实名认证服务暂不可用，请稍后重试。',
    'zh-TW': '實名認證服務暫不可用，請稍後重試。',
    en: 'The verification service is unavailable right now. Please try again later.',
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
    'zh-CN': '出于安全原因，不允许访问内网或本机地址。如需使用本地模型，请管理员开启 ALLOW_PRIVATE_MODEL_ENDPOINTS。',
    'zh-TW': '基於安全原因，不允許存取內網或本機位址。如需使用本機模型，請管理員開啟 ALLOW_PRIVATE_MODEL_ENDPOINTS。',
    en: 'For safety, private and local addresses are blocked. To use a local model, an operator must set ALLOW_PRIVATE_MODEL_ENDPOINTS.',
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
    'zh-CN': '还没有可用的对话模型密钥。请管理员在“模型密钥”中添加。',
    'zh-TW': '還沒有可用的對話模型金鑰。請管理員在「模型金鑰」中新增。',
    en: 'There is no chat model key yet. Ask an admin to add one under LLM API keys.',
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
  ...WORKFLOW_ERRORS,
  ...CHAT_ERRORS,
  ...BILLING_ERRORS,
  ...MEDIA_ERRORS,
} as const;

export type ErrorKey = keyof typeof ERRORS;
export type ErrorCode = (typeof ERRORS)[ErrorKey]['code'];

export const isErrorKey = (value: string): value is ErrorKey => Object.hasOwn(ERRORS, value);

/** Fills `{name}` placeholders; unknown placeholders are left as they are. */
export function formatMessage(key: ErrorKey, language: Language, params: Record<string, string | number> = {}) {
  return ERRORS[key].msg[language].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

export function parseLanguage(value: unknown): Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value)
    ? (value as Language)
    : DEFAULT_LANGUAGE;
}
