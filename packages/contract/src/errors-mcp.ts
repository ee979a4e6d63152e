import type { Language } from './languages.ts';

// The MCP server's codes of the error catalogue (41000–41099), kept apart like the media ones.
// errors.ts merges them into ERRORS; codes are stable: never renumber one. docs/mcp.md.
const entry = <C extends number>(code: C, httpStatus: number, msg: Record<Language, string>) => ({
  code,
  httpStatus,
  msg,
});

export const MCP_ERRORS = {
  MCP_TOKEN_INVALID: entry(41000, 401, {
    'zh-CN': 'MCP 访问令牌无效、已过期或已被撤销。',
    'zh-TW': 'MCP 存取權杖無效、已過期或已被撤銷。',
    en: 'The MCP access token is invalid, expired or revoked.',
  }),
  MCP_SERVER_OFF: entry(41001, 403, {
    'zh-CN': '该团队的 MCP 服务已关闭，请联系团队管理员开启。',
    'zh-TW': '該團隊的 MCP 服務已關閉，請聯絡團隊管理員開啟。',
    en: "This team's MCP server is turned off; a team admin can turn it on.",
  }),
  MCP_TOOL_NAME_INVALID: entry(41002, 200, {
    'zh-CN': '工具名须为 1 到 64 个字母、数字、下划线或连字符。',
    'zh-TW': '工具名須為 1 到 64 個字母、數字、底線或連字號。',
    en: 'A tool name must be 1 to 64 letters, digits, underscores or hyphens.',
  }),
  MCP_TOOL_NAME_TAKEN: entry(41003, 200, {
    'zh-CN': '本团队已有名为 {name} 的工具。',
    'zh-TW': '本團隊已有名為 {name} 的工具。',
    en: 'The team already has a tool named {name}.',
  }),
  MCP_TOOL_ALREADY_EXPOSED: entry(41004, 200, {
    'zh-CN': '该对象已作为工具开放。',
    'zh-TW': '該物件已作為工具開放。',
    en: 'This is already exposed as a tool.',
  }),
  MCP_WORKFLOW_NOT_EFFECTIVE: entry(41005, 200, {
    'zh-CN': '只有已生效的工作流才能作为工具开放或调用。',
    'zh-TW': '只有已生效的工作流才能作為工具開放或呼叫。',
    en: 'Only an effective workflow can be exposed or called as a tool.',
  }),
  MCP_WORKFLOW_LOCKED: entry(41006, 200, {
    'zh-CN': '工作流 {name} 已被锁定，暂不能通过 MCP 调用。',
    'zh-TW': '工作流 {name} 已被鎖定，暫不能透過 MCP 呼叫。',
    en: 'The workflow {name} is locked and cannot be called through MCP for now.',
  }),
  MCP_TOOL_TARGET_GONE: entry(41007, 200, {
    'zh-CN': '工具 {name} 指向的对象已被删除。',
    'zh-TW': '工具 {name} 指向的物件已被刪除。',
    en: 'What the tool {name} pointed at has been deleted.',
  }),
  MCP_TOKEN_EXPIRY_INVALID: entry(41008, 200, {
    'zh-CN': '过期时间须晚于现在，且不超过一年。',
    'zh-TW': '過期時間須晚於現在，且不超過一年。',
    en: 'The expiry must be in the future and at most a year away.',
  }),
  MCP_TOO_MANY_TOKENS: entry(41009, 200, {
    'zh-CN': '一个团队最多可有 {max} 个有效的访问令牌。',
    'zh-TW': '一個團隊最多可有 {max} 個有效的存取權杖。',
    en: 'A team may have at most {max} active access tokens.',
  }),
  MCP_TOO_MANY_TOOLS: entry(41010, 200, {
    'zh-CN': '一个团队最多可开放 {max} 个工具。',
    'zh-TW': '一個團隊最多可開放 {max} 個工具。',
    en: 'A team may expose at most {max} tools.',
  }),
  MCP_ARGUMENTS_INVALID: entry(41011, 200, {
    'zh-CN': '参数不符合工具的输入格式：{detail}',
    'zh-TW': '參數不符合工具的輸入格式：{detail}',
    en: "The arguments do not match the tool's input schema: {detail}",
  }),
  // External MCP servers the team adds (41020–41039; docs/mcp.md, "External MCP servers").
  MCP_EXTERNAL_NAME_TAKEN: entry(41020, 200, {
    'zh-CN': '本团队已有名为 {name} 的外部 MCP 服务。',
    'zh-TW': '本團隊已有名為 {name} 的外部 MCP 服務。',
    en: 'The team already has an external MCP server named {name}.',
  }),
  MCP_EXTERNAL_TOO_MANY: entry(41021, 200, {
    'zh-CN': '一个团队最多可添加 {max} 个外部 MCP 服务。',
    'zh-TW': '一個團隊最多可新增 {max} 個外部 MCP 服務。',
    en: 'A team may add at most {max} external MCP servers.',
  }),
  MCP_EXTERNAL_URL_INVALID: entry(41022, 200, {
    'zh-CN': '请填写以 http:// 或 https:// 开头的完整地址。',
    'zh-TW': '請填寫以 http:// 或 https:// 開頭的完整網址。',
    en: 'Enter a full URL starting with http:// or https://.',
  }),
  MCP_EXTERNAL_ADDRESS_BLOCKED: entry(41023, 200, {
    'zh-CN': '不能连接内网或本机地址（{host}）。',
    'zh-TW': '不能連線內網或本機位址（{host}）。',
    en: 'Private and loopback addresses cannot be reached ({host}).',
  }),
  MCP_EXTERNAL_UNREACHABLE: entry(41024, 200, {
    'zh-CN': '无法连接该 MCP 服务：{detail}',
    'zh-TW': '無法連線該 MCP 服務：{detail}',
    en: 'The MCP server could not be reached: {detail}',
  }),
  MCP_EXTERNAL_TIMEOUT: entry(41025, 200, {
    'zh-CN': 'MCP 服务在 {seconds} 秒内没有响应。',
    'zh-TW': 'MCP 服務在 {seconds} 秒內沒有回應。',
    en: 'The MCP server did not answer within {seconds} seconds.',
  }),
  MCP_EXTERNAL_PROTOCOL: entry(41026, 200, {
    'zh-CN': '对方的回答不是有效的 MCP 消息：{detail}',
    'zh-TW': '對方的回答不是有效的 MCP 訊息：{detail}',
    en: 'The server did not answer with valid MCP messages: {detail}',
  }),
  MCP_EXTERNAL_TOO_LARGE: entry(41027, 200, {
    'zh-CN': 'MCP 服务的回答超过 {max} MB，已停止读取。',
    'zh-TW': 'MCP 服務的回答超過 {max} MB，已停止讀取。',
    en: 'The MCP server answered with more than {max} MB; reading stopped.',
  }),
  MCP_EXTERNAL_UNAUTHORIZED: entry(41028, 200, {
    'zh-CN': 'MCP 服务拒绝了访问（HTTP {status}），请检查请求头或令牌。',
    'zh-TW': 'MCP 服務拒絕了存取（HTTP {status}），請檢查請求標頭或權杖。',
    en: 'The MCP server refused access (HTTP {status}); check the headers or token.',
  }),
  MCP_EXTERNAL_TOOL_UNKNOWN: entry(41029, 200, {
    'zh-CN': '该 MCP 服务没有名为 {name} 的工具。',
    'zh-TW': '該 MCP 服務沒有名為 {name} 的工具。',
    en: 'The MCP server has no tool named {name}.',
  }),
  MCP_EXTERNAL_CALL_FAILED: entry(41030, 200, {
    'zh-CN': 'MCP 服务返回错误：{detail}',
    'zh-TW': 'MCP 服務回傳錯誤：{detail}',
    en: 'The MCP server answered with an error: {detail}',
  }),
  MCP_EXTERNAL_DISABLED: entry(41031, 200, {
    'zh-CN': '外部 MCP 服务 {name} 已停用。',
    'zh-TW': '外部 MCP 服務 {name} 已停用。',
    en: 'The external MCP server {name} is turned off.',
  }),
  MCP_EXTERNAL_CANCELLED: entry(41032, 200, {
    'zh-CN': '调用已取消。',
    'zh-TW': '呼叫已取消。',
    en: 'The call was cancelled.',
  }),
  MCP_EXTERNAL_HEADER_INVALID: entry(41033, 200, {
    'zh-CN':
      '请求头 {name} 不可用：名称只能含字母、数字和 -_. 等符号，值不能换行，且不能设置 Host、Content-Type 等由连接自动设置的请求头。',
    'zh-TW':
      '請求標頭 {name} 不可用：名稱只能含字母、數字和 -_. 等符號，值不能換行，且不能設定 Host、Content-Type 等由連線自動設定的標頭。',
    en: 'The header {name} cannot be used: names are letters, digits and -_. and the like, values have no line breaks, and headers the connection sets itself (Host, Content-Type…) cannot be set.',
  }),
  MCP_EXTERNAL_ARGUMENTS_TOO_LARGE: entry(41034, 200, {
    'zh-CN': '参数过大，最多 {max} KB。',
    'zh-TW': '參數過大，最多 {max} KB。',
    en: 'The arguments are too large: at most {max} KB.',
  }),
} as const;
