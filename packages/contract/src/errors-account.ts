import type { Language } from './languages.ts';

// The sign-in, team and account codes of the error catalogue (40001–40064), kept apart like the billing ones.
// errors.ts merges them into ERRORS; codes are stable: never renumber one.
const entry = <C extends number>(code: C, httpStatus: number, msg: Record<Language, string>) => ({
  code,
  httpStatus,
  msg,
});

export const ACCOUNT_ERRORS = {
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
} as const;
