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
} as const;
