import type { Language } from './languages.ts';

// The workflow codes of the error catalogue (40200–40299), kept apart so that errors.ts stays
// readable. errors.ts merges them into ERRORS; codes are stable: never renumber one.
const entry = <C extends number>(code: C, httpStatus: number, msg: Record<Language, string>) => ({
  code,
  httpStatus,
  msg,
});

export const WORKFLOW_ERRORS = {
  WORKFLOW_NAME_REQUIRED: entry(40200, 200, {
    'zh-CN': '请输入工作流名称。',
    'zh-TW': '請輸入工作流名稱。',
    en: 'Please enter a workflow name.',
  }),
  WORKFLOW_NAME_TOO_LONG: entry(40201, 200, {
    'zh-CN': '工作流名称不能超过 50 个字符。',
    'zh-TW': '工作流名稱不能超過 50 個字元。',
    en: 'The workflow name can be at most 50 characters.',
  }),
  WORKFLOW_NOT_FOUND: entry(40202, 200, {
    'zh-CN': '工作流不存在或已被删除。',
    'zh-TW': '工作流不存在或已被刪除。',
    en: 'This workflow does not exist or was deleted.',
  }),
  WORKFLOW_LOCKED: entry(40203, 200, {
    'zh-CN': '该工作流已锁定，解锁后才能编辑或删除。',
    'zh-TW': '此工作流已鎖定，解鎖後才能編輯或刪除。',
    en: 'This workflow is locked. Unlock it before editing or deleting it.',
  }),
  WORKFLOW_LOCK_FORBIDDEN: entry(40204, 200, {
    'zh-CN': '只有工作流的创建者或团队管理员可以锁定或解锁它。',
    'zh-TW': '只有工作流的建立者或團隊管理員可以鎖定或解鎖它。',
    en: "Only the workflow's creator or a team admin can lock or unlock it.",
  }),
  WORKFLOW_DRAFT_CONFLICT: entry(40205, 200, {
    'zh-CN': '草稿已在别处被修改（可能是另一个标签页）。请刷新后再编辑，以免覆盖对方的修改。',
    'zh-TW': '草稿已在別處被修改（可能是另一個分頁）。請重新整理後再編輯，以免覆蓋對方的修改。',
    en: 'The draft was changed elsewhere (perhaps in another tab). Reload before editing so neither change is lost.',
  }),
  WORKFLOW_TOO_LARGE: entry(40206, 200, {
    'zh-CN': '工作流过大：最多 2000 个节点、6000 条连线，文件不超过 2 MB。',
    'zh-TW': '工作流過大：最多 2000 個節點、6000 條連線，檔案不超過 2 MB。',
    en: 'The workflow is too large: at most 2,000 nodes, 6,000 connections and 2 MB.',
  }),
  // `{problems}` names them, each in its own message (listedMessages in errors.ts).
  WORKFLOW_INVALID: entry(40207, 200, {
    'zh-CN': '工作流还有 {count} 个问题，修正后才能发布或运行：{problems}',
    'zh-TW': '工作流還有 {count} 個問題，修正後才能發布或執行：{problems}',
    en: 'The workflow has {count} problem(s) to fix before it can be published or run: {problems}',
  }),
  WORKFLOW_NOT_EFFECTIVE: entry(40208, 200, {
    'zh-CN': '该工作流未生效：请先发布并设为生效。',
    'zh-TW': '此工作流未生效：請先發布並設為生效。',
    en: 'This workflow is not effective: publish it and make it effective first.',
  }),
  WORKFLOW_NODE_ID_INVALID: entry(40209, 200, {
    'zh-CN': '节点 ID 只能包含字母、数字、下划线和连字符，且不能是 sys 或 env（系统变量和环境变量专用）。',
    'zh-TW': '節點 ID 只能包含字母、數字、底線和連字號，且不能是 sys 或 env（系統變數和環境變數專用）。',
    en: 'A node id may contain only letters, digits, underscores and hyphens, and may not be sys or env (reserved for the system and environment variables).',
  }),
  WORKFLOW_VARIABLE_NAME_INVALID: entry(40210, 200, {
    'zh-CN': '变量名须以字母或下划线开头，只含字母、数字和下划线。',
    'zh-TW': '變數名稱須以字母或底線開頭，只含字母、數字和底線。',
    en: 'A variable name must start with a letter or underscore and contain only letters, digits and underscores.',
  }),
  WORKFLOW_RUN_NOT_FOUND: entry(40211, 200, {
    'zh-CN': '运行记录不存在。',
    'zh-TW': '執行記錄不存在。',
    en: 'This run does not exist.',
  }),
  WORKFLOW_INPUT_REQUIRED: entry(40212, 200, {
    'zh-CN': '请填写输入“{name}”。',
    'zh-TW': '請填寫輸入「{name}」。',
    en: 'Please fill in the input "{name}".',
  }),
  WORKFLOW_INPUT_INVALID: entry(40213, 200, {
    'zh-CN': '输入“{name}”的值不正确：{detail}',
    'zh-TW': '輸入「{name}」的值不正確：{detail}',
    en: 'The input "{name}" is not valid: {detail}',
  }),
  WORKFLOW_GROUP_NOT_FOUND: entry(40214, 200, {
    'zh-CN': '分组不存在或已被删除。',
    'zh-TW': '分組不存在或已被刪除。',
    en: 'This group does not exist or was deleted.',
  }),
  WORKFLOW_TEMPLATE_NOT_FOUND: entry(40215, 200, {
    'zh-CN': '模板不存在或已被删除。',
    'zh-TW': '範本不存在或已被刪除。',
    en: 'This template does not exist or was deleted.',
  }),
  WORKFLOW_IMPORT_INVALID: entry(40216, 200, {
    'zh-CN': '无法导入该文件：{detail}',
    'zh-TW': '無法匯入此檔案：{detail}',
    en: 'This file cannot be imported: {detail}',
  }),
  WORKFLOW_IMPORT_VERSION_UNSUPPORTED: entry(40217, 200, {
    'zh-CN': '不支持该文件的版本（{version}）。',
    'zh-TW': '不支援此檔案的版本（{version}）。',
    en: 'This file version ({version}) is not supported.',
  }),
  WORKFLOW_NOT_PUBLISHED: entry(40218, 200, {
    'zh-CN': '该工作流尚未发布：请先发布一个版本，再设为生效。',
    'zh-TW': '此工作流尚未發布：請先發布一個版本，再設為生效。',
    en: 'This workflow has not been published yet: publish a version before making it effective.',
  }),
  WORKFLOW_START_MISSING: entry(40230, 200, {
    'zh-CN': '工作流需要一个开始节点。',
    'zh-TW': '工作流需要一個開始節點。',
    en: 'The workflow needs a start node.',
  }),
  WORKFLOW_START_DUPLICATE: entry(40231, 200, {
    'zh-CN': '工作流只能有一个开始节点。',
    'zh-TW': '工作流只能有一個開始節點。',
    en: 'The workflow can have only one start node.',
  }),
  WORKFLOW_END_MISSING: entry(40232, 200, {
    'zh-CN': '工作流需要至少一个结束节点或直接回复节点。',
    'zh-TW': '工作流需要至少一個結束節點或直接回覆節點。',
    en: 'The workflow needs at least one end or answer node.',
  }),
  WORKFLOW_NODE_UNCONNECTED: entry(40233, 200, {
    'zh-CN': '节点“{node}”未连接。',
    'zh-TW': '節點「{node}」未連接。',
    en: 'The node "{node}" is not connected.',
  }),
  WORKFLOW_CYCLE: entry(40234, 200, {
    'zh-CN': '节点“{node}”处形成了环路；重复执行请使用循环节点。',
    'zh-TW': '節點「{node}」處形成了迴圈；重複執行請使用循環節點。',
    en: 'The connections form a cycle at "{node}"; use a loop node to repeat steps.',
  }),
  WORKFLOW_SELECTOR_UNKNOWN: entry(40235, 200, {
    'zh-CN': '节点“{node}”引用的变量 {selector} 不存在或不在它的上游。',
    'zh-TW': '節點「{node}」引用的變數 {selector} 不存在或不在它的上游。',
    en: 'The node "{node}" uses {selector}, which does not exist or is not upstream of it.',
  }),
  WORKFLOW_NODE_UNSUPPORTED: entry(40236, 200, {
    'zh-CN': '节点“{node}”的类型“{type}”在本平台不可用，请替换或删除它。',
    'zh-TW': '節點「{node}」的類型「{type}」在本平台不可用，請替換或刪除它。',
    en: 'The node "{node}" is of type "{type}", which this platform does not have. Replace or remove it.',
  }),
  WORKFLOW_NODE_INCOMPLETE: entry(40237, 200, {
    'zh-CN': '节点“{node}”尚未配置：{field}。',
    'zh-TW': '節點「{node}」尚未設定：{field}。',
    en: 'The node "{node}" is not configured yet: {field}.',
  }),
  WORKFLOW_EDGE_INVALID: entry(40238, 200, {
    'zh-CN': '有一条连线指向不存在的节点或出口。',
    'zh-TW': '有一條連線指向不存在的節點或出口。',
    en: 'A connection points to a node or handle that does not exist.',
  }),
  WORKFLOW_NODE_DUPLICATE_ID: entry(40239, 200, {
    'zh-CN': '节点 ID“{node}”重复。',
    'zh-TW': '節點 ID「{node}」重複。',
    en: 'The node id "{node}" is used twice.',
  }),
  WORKFLOW_MODEL_MISSING: entry(40240, 200, {
    'zh-CN': '节点“{node}”未选择模型，且团队没有默认对话模型。',
    'zh-TW': '節點「{node}」未選擇模型，且團隊沒有預設對話模型。',
    en: 'The node "{node}" has no model, and the team has no default chat model.',
  }),
  WORKFLOW_NODE_TIMEOUT: entry(40250, 200, {
    'zh-CN': '节点运行超时（{ms} 毫秒）。',
    'zh-TW': '節點執行逾時（{ms} 毫秒）。',
    en: 'The node timed out after {ms} ms.',
  }),
  WORKFLOW_STEP_LIMIT: entry(40251, 200, {
    'zh-CN': '运行步数超过上限（{max} 步）。',
    'zh-TW': '執行步數超過上限（{max} 步）。',
    en: 'The run took more than {max} steps.',
  }),
  WORKFLOW_RUN_TIMEOUT: entry(40252, 200, {
    'zh-CN': '运行时间超过上限（{ms} 毫秒）。',
    'zh-TW': '執行時間超過上限（{ms} 毫秒）。',
    en: 'The run took longer than {ms} ms.',
  }),
  WORKFLOW_RUN_CANCELLED: entry(40253, 200, {
    'zh-CN': '运行已被取消。',
    'zh-TW': '執行已被取消。',
    en: 'The run was cancelled.',
  }),
  WORKFLOW_SERVER_STOPPED: entry(40254, 200, {
    'zh-CN': '服务在运行途中停止（重启或崩溃），运行未能完成。',
    'zh-TW': '服務在執行途中停止（重新啟動或當機），執行未能完成。',
    en: 'The server stopped (a restart or a crash) during the run, so it did not finish.',
  }),
  WORKFLOW_NODE_FAILED: entry(40255, 200, {
    'zh-CN': '节点运行失败：{detail}',
    'zh-TW': '節點執行失敗：{detail}',
    en: 'The node failed: {detail}',
  }),
  WORKFLOW_LIST_EXPECTED: entry(40256, 200, {
    'zh-CN': '节点“{node}”需要一个列表，但 {selector} 不是列表。',
    'zh-TW': '節點「{node}」需要一個清單，但 {selector} 不是清單。',
    en: 'The node "{node}" needs a list, but {selector} is not one.',
  }),
  WORKFLOW_ITERATION_TOO_MANY: entry(40257, 200, {
    'zh-CN': '节点“{node}”要迭代 {count} 项，超过上限 {max} 项。',
    'zh-TW': '節點「{node}」要迭代 {count} 項，超過上限 {max} 項。',
    en: 'The node "{node}" would iterate over {count} items; the limit is {max}.',
  }),
  WORKFLOW_SUBFLOW_TOO_DEEP: entry(40260, 200, {
    'zh-CN': '子工作流嵌套超过 {max} 层（可能在调用自身），已停止。',
    'zh-TW': '子工作流巢狀超過 {max} 層（可能在呼叫自身），已停止。',
    en: 'Sub-workflows are nested more than {max} deep (perhaps one calls itself), so the run stopped.',
  }),
  WORKFLOW_RUN_FINISHED: entry(40261, 200, {
    'zh-CN': '该运行已结束，无法取消。',
    'zh-TW': '該執行已結束，無法取消。',
    en: 'This run has already finished and cannot be cancelled.',
  }),
  WORKFLOW_CODE_BUSY: entry(40262, 200, {
    'zh-CN': '代码沙箱繁忙：本空间已有 {max} 个代码运行在排队，请稍后再试。',
    'zh-TW': '程式碼沙箱繁忙：本空間已有 {max} 個程式碼執行在排隊，請稍後再試。',
    en: 'The code sandbox is busy: {max} code runs of this space are already waiting. Try again shortly.',
  }),
  WORKFLOW_CODE_TIMEOUT: entry(40265, 200, {
    'zh-CN': '代码运行超过时间上限（{ms} 毫秒），已停止。',
    'zh-TW': '程式碼執行超過時間上限（{ms} 毫秒），已停止。',
    en: 'The code ran longer than its time limit ({ms} ms) and was stopped.',
  }),
  WORKFLOW_CODE_MEMORY: entry(40266, 200, {
    'zh-CN': '代码使用的内存超过上限（{mb} MB），已停止。',
    'zh-TW': '程式碼使用的記憶體超過上限（{mb} MB），已停止。',
    en: 'The code used more memory than its limit ({mb} MB) and was stopped.',
  }),
  WORKFLOW_CODE_ERROR: entry(40267, 200, {
    'zh-CN': '代码运行出错：{detail}',
    'zh-TW': '程式碼執行出錯：{detail}',
    en: 'The code failed: {detail}',
  }),
  WORKFLOW_CODE_OUTPUT_INVALID: entry(40268, 200, {
    'zh-CN': '代码的返回值与声明的输出不符：{detail}',
    'zh-TW': '程式碼的回傳值與宣告的輸出不符：{detail}',
    en: "The code's result does not match its declared outputs: {detail}",
  }),
  WORKFLOW_TEMPLATE_ERROR: entry(40269, 200, {
    'zh-CN': '模板渲染出错：{detail}',
    'zh-TW': '範本渲染出錯：{detail}',
    en: 'The template could not be rendered: {detail}',
  }),
  // Notes a Dify import leaves for the person (the workflow is created; these say what to check).
  WORKFLOW_IMPORT_MODEL_UNMATCHED: entry(40270, 200, {
    'zh-CN': '节点“{node}”使用的模型 {model} 与团队的模型密钥都不匹配，请为它选择模型。',
    'zh-TW': '節點「{node}」使用的模型 {model} 與團隊的模型金鑰都不相符，請為它選擇模型。',
    en: 'The node "{node}" used the model {model}, which matches none of the team\'s model keys. Choose a model for it.',
  }),
  WORKFLOW_IMPORT_NODE_PLACEHOLDER: entry(40271, 200, {
    'zh-CN': '节点“{node}”（{type}）在本平台没有对应节点，已导入为占位节点，请替换或删除它。',
    'zh-TW': '節點「{node}」（{type}）在本平台沒有對應節點，已匯入為佔位節點，請替換或刪除它。',
    en: 'The node "{node}" ({type}) has no counterpart here and came in as a placeholder. Replace or remove it.',
  }),
  WORKFLOW_IMPORT_KNOWLEDGE_UNMAPPED: entry(40272, 200, {
    'zh-CN': '节点“{node}”引用的 {count} 个 Dify 知识库无法带入，请重新选择知识库。',
    'zh-TW': '節點「{node}」引用的 {count} 個 Dify 知識庫無法帶入，請重新選擇知識庫。',
    en: 'The node "{node}" used {count} Dify knowledge base(s), which cannot come along. Choose knowledge bases again.',
  }),
  WORKFLOW_IMPORT_SETTING_DROPPED: entry(40273, 200, {
    'zh-CN': '节点“{node}”的设置“{setting}”在本平台不可用，已忽略。',
    'zh-TW': '節點「{node}」的設定「{setting}」在本平台不可用，已忽略。',
    en: 'The setting "{setting}" of the node "{node}" is not available here and was left out.',
  }),
  WORKFLOW_IMPORT_SECRET_EMPTY: entry(40274, 200, {
    'zh-CN': '机密环境变量“{name}”导出时不含值，请填写。',
    'zh-TW': '機密環境變數「{name}」匯出時不含值，請填寫。',
    en: 'The secret environment variable "{name}" was exported without its value. Fill it in.',
  }),
  WORKFLOW_IMPORT_CONVERSATION_VARIABLE: entry(40275, 200, {
    'zh-CN': '会话变量“{name}”已转为环境变量“{env}”：它的值不会在对话的多轮之间保留。',
    'zh-TW': '會話變數「{name}」已轉為環境變數「{env}」：它的值不會在對話的多輪之間保留。',
    en: 'The conversation variable "{name}" became the environment variable "{env}": its value does not carry over between turns.',
  }),
  WORKFLOW_IMPORT_VALUE_ADJUSTED: entry(40276, 200, {
    'zh-CN': '节点“{node}”的“{setting}”从 {from} 调整为 {to}（本平台允许的最接近的值）。',
    'zh-TW': '節點「{node}」的「{setting}」從 {from} 調整為 {to}（本平台允許的最接近的值）。',
    en: 'The setting "{setting}" of the node "{node}" changed from {from} to {to}, the nearest value allowed here.',
  }),
  WORKFLOW_HTTP_ADDRESS_BLOCKED: entry(40277, 200, {
    'zh-CN': 'HTTP 节点不能访问内网或本机地址（{host}）。',
    'zh-TW': 'HTTP 節點不能存取內網或本機位址（{host}）。',
    en: 'The HTTP node may not call private or local addresses ({host}).',
  }),
  WORKFLOW_IMPORT_SECRET_MOVED: entry(40278, 200, {
    'zh-CN':
      '节点“{node}”的“{field}”中写有密钥，已移入机密环境变量“{env}”（不再显示、导出或记录）。请确认它应当保留，否则请更换该密钥。',
    'zh-TW':
      '節點「{node}」的「{field}」中寫有金鑰，已移入機密環境變數「{env}」（不再顯示、匯出或記錄）。請確認它應當保留，否則請更換該金鑰。',
    en: 'The node "{node}" had a secret written in "{field}". It was moved to the secret environment variable "{env}", which is never shown, exported or logged again. Confirm it belongs there, or replace the secret.',
  }),
  WORKFLOW_IMPORT_SECRET_LEFT_OUT: entry(40279, 200, {
    'zh-CN': '节点“{node}”的“{field}”中写有密钥，但环境变量已满（最多 50 个），该值未导入，请填写。',
    'zh-TW': '節點「{node}」的「{field}」中寫有金鑰，但環境變數已滿（最多 50 個），該值未匯入，請填寫。',
    en: 'The node "{node}" had a secret written in "{field}", but the environment is full (50 variables at most), so the value was left out. Fill it in.',
  }),
  // API keys and triggers (docs/workflow-triggers.md). The public routes answer with the HTTP status.
  WORKFLOW_API_KEY_INVALID: entry(40280, 401, {
    'zh-CN': 'API 密钥无效或已被撤销。',
    'zh-TW': 'API 金鑰無效或已被撤銷。',
    en: 'The API key is invalid or has been revoked.',
  }),
  WORKFLOW_WEBHOOK_NOT_FOUND: entry(40281, 404, {
    'zh-CN': '该 Webhook 不存在或已停用。',
    'zh-TW': '此 Webhook 不存在或已停用。',
    en: 'This webhook does not exist or is turned off.',
  }),
  WORKFLOW_WEBHOOK_SIGNATURE_INVALID: entry(40282, 401, {
    'zh-CN': 'Webhook 签名缺失或不正确。',
    'zh-TW': 'Webhook 簽章缺少或不正確。',
    en: 'The webhook signature is missing or wrong.',
  }),
  WORKFLOW_WEBHOOK_SIGNATURE_EXPIRED: entry(40283, 401, {
    'zh-CN': 'Webhook 签名的时间戳与服务器时间相差超过 5 分钟。',
    'zh-TW': 'Webhook 簽章的時間戳記與伺服器時間相差超過 5 分鐘。',
    en: "The webhook signature's timestamp is more than 5 minutes from the server's time.",
  }),
  WORKFLOW_WEBHOOK_REPLAYED: entry(40284, 409, {
    'zh-CN': '该 Webhook 请求已被接收过，不能重复提交。',
    'zh-TW': '此 Webhook 請求已被接收過，不能重複提交。',
    en: 'This webhook request was already received; a signed request is accepted once.',
  }),
  WORKFLOW_WEBHOOK_BODY_INVALID: entry(40285, 400, {
    'zh-CN': 'Webhook 请求体必须是 JSON 对象，其字段即工作流的输入。',
    'zh-TW': 'Webhook 請求主體必須是 JSON 物件，其欄位即工作流的輸入。',
    en: "The webhook body must be a JSON object; its fields are the workflow's inputs.",
  }),
  WORKFLOW_CRON_INVALID: entry(40286, 200, {
    'zh-CN': 'Cron 表达式无效：需要 5 个字段（分 时 日 月 周），最小间隔为 1 分钟，且必须会触发。',
    'zh-TW': 'Cron 運算式無效：需要 5 個欄位（分 時 日 月 週），最小間隔為 1 分鐘，且必須會觸發。',
    en: 'Invalid cron expression: it needs 5 fields (minute hour day month weekday), fires at most once a minute, and must fire at some time.',
  }),
  WORKFLOW_TIMEZONE_INVALID: entry(40287, 200, {
    'zh-CN': '时区“{zone}”无效，请使用 IANA 时区名称，例如 Asia/Shanghai。',
    'zh-TW': '時區「{zone}」無效，請使用 IANA 時區名稱，例如 Asia/Taipei。',
    en: 'The time zone "{zone}" is invalid. Use an IANA time zone name such as Europe/Berlin.',
  }),
} as const;
