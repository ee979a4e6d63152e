import {
  bigint,
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    nickname: text('nickname').notNull(),
    avatarUrl: text('avatar_url'),
    phone: text('phone'),
    wechatOpenid: text('wechat_openid'),
    wechatUnionid: text('wechat_unionid'),
    /** The space the user last switched to; reused at the next sign-in. */
    lastSpaceId: uuid('last_space_id'),
    /** Settings that follow the user to every device (null: the device decides). */
    language: text('language'),
    timezone: text('timezone'),
    theme: text('theme').notNull().default('system'),
    /** Where to land after signing in; null means the last space used. */
    defaultSpaceId: uuid('default_space_id'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_phone_key').on(t.phone), uniqueIndex('users_wechat_openid_key').on(t.wechatOpenid)],
);

export const spaces = pgTable('spaces', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  /** Prepaid balance in fen. */
  balance: bigint('balance', { mode: 'number' }).notNull().default(0),
  personal: boolean('personal').notNull().default(false),
  creatorId: uuid('creator_id')
    .notNull()
    .references(() => users.id),
  createdAt: createdAt(),
  /** Dissolved teams keep their rows (and audit trail) but have no members. */
  dissolvedAt: timestamp('dissolved_at', { withTimezone: true }),
});

export const spaceMembers = pgTable(
  'space_members',
  {
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** 1 creator, 2 admin, 3 member. */
    role: smallint('role').notNull(),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.spaceId, t.userId] }),
    index('space_members_user_idx').on(t.userId),
    // The member list's order: creator, admins, members, then by joining time.
    index('space_members_listing_idx').on(t.spaceId, t.role, t.joinedAt, t.userId),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** sha256 of the token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    userAgent: text('user_agent'),
    ip: text('ip'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('sessions_token_hash_key').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

export const smsCodes = pgTable(
  'sms_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    phone: text('phone').notNull(),
    purpose: text('purpose').notNull(),
    /** HMAC of phone and code with the server secret. */
    codeHash: text('code_hash').notNull(),
    ip: text('ip').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set when used, burnt by too many attempts, or replaced by a newer code. */
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [index('sms_codes_phone_idx').on(t.phone, t.createdAt), index('sms_codes_ip_idx').on(t.ip, t.createdAt)],
);

export const wechatLogins = pgTable(
  'wechat_logins',
  {
    /** The QR scene string the browser polls with. */
    code: text('code').primaryKey(),
    /** 'login', or 'bind' when a signed-in user links WeChat from the account page. */
    purpose: text('purpose').notNull().default('login'),
    bindUserId: uuid('bind_user_id'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    scannedAt: timestamp('scanned_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    openid: text('openid'),
    unionid: text('unionid'),
    nickname: text('nickname'),
    avatarUrl: text('avatar_url'),
  },
  (t) => [index('wechat_logins_expires_idx').on(t.expiresAt)],
);

/** Short-lived proof that a WeChat user without a phone scanned; only bind_phone accepts it. */
export const phoneBindings = pgTable('phone_bindings', {
  tokenHash: text('token_hash').primaryKey(),
  openid: text('openid').notNull(),
  unionid: text('unionid'),
  nickname: text('nickname'),
  avatarUrl: text('avatar_url'),
  createdAt: createdAt(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  consumedAt: timestamp('consumed_at', { withTimezone: true }),
});

export const spaceInvites = pgTable(
  'space_invites',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    /** The random part of /invite/{code}. */
    code: text('code').notNull(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    /** null: never expires. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** null: unlimited. */
    maxUses: integer('max_uses'),
    useCount: integer('use_count').notNull().default(0),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('space_invites_code_key').on(t.code), index('space_invites_space_idx').on(t.spaceId)],
);

export const auditLogs = pgTable(
  'audit_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    actorId: uuid('actor_id')
      .notNull()
      .references(() => users.id),
    action: text('action').notNull(),
    targetUserId: uuid('target_user_id').references(() => users.id),
    details: jsonb('details').$type<Record<string, string | number | boolean | null>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_logs_space_time_idx').on(t.spaceId, t.createdAt),
    index('audit_logs_space_action_idx').on(t.spaceId, t.action),
  ],
);

/** Real-name verification attempts; name and ID number are encrypted with the master key. */
export const realNameVerifications = pgTable(
  'real_name_verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** pending | verified | failed */
    state: text('state').notNull(),
    provider: text('provider').notNull(),
    /** The provider's handle for this attempt (e.g. a BizToken). */
    providerToken: text('provider_token').notNull(),
    nameEncrypted: text('name_encrypted').notNull(),
    idNumberEncrypted: text('id_number_encrypted').notNull(),
    /** Masked copies for display, computed once at submission. */
    nameMasked: text('name_masked').notNull(),
    idNumberMasked: text('id_number_masked').notNull(),
    failureReason: text('failure_reason'),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('real_name_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('real_name_token_key').on(t.providerToken),
  ],
);

/** Bring-your-own LLM keys; the key itself is encrypted with the master key. */
export const modelKeys = pgTable(
  'model_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    modelName: text('model_name').notNull(),
    /** The model id the endpoint expects, e.g. qwen-plus. */
    version: text('version').notNull(),
    baseUrl: text('base_url').notNull(),
    apiKeyEncrypted: text('api_key_encrypted').notNull(),
    apiKeyMasked: text('api_key_masked').notNull(),
    /** chat | embedding | rerank */
    purpose: text('purpose').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    lastTestAt: timestamp('last_test_at', { withTimezone: true }),
    lastTestOk: boolean('last_test_ok'),
    lastTestLatencyMs: integer('last_test_latency_ms'),
    lastTestErrorKind: text('last_test_error_kind'),
  },
  (t) => [index('model_keys_space_idx').on(t.spaceId, t.purpose)],
);

/** One row per model call, for the fees the billing work will price. */
export const llmUsage = pgTable(
  'llm_usage',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id),
    /** What made the call: model_key.test, agent.chat, knowledge.embed, … */
    source: text('source').notNull(),
    modelKeyId: uuid('model_key_id'),
    model: text('model').notNull(),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    latencyMs: integer('latency_ms').notNull(),
    /** ok | error | cancelled */
    outcome: text('outcome').notNull(),
    errorKind: text('error_kind'),
    createdAt: createdAt(),
  },
  (t) => [index('llm_usage_space_time_idx').on(t.spaceId, t.createdAt)],
);

export const agents = pgTable(
  'agents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    /** The `model` name callers use on /v1/chat/completions. */
    publicId: text('public_id').notNull(),
    name: text('name').notNull(),
    avatarUrl: text('avatar_url'),
    description: text('description').notNull().default(''),
    systemPrompt: text('system_prompt').notNull().default(''),
    openingMessage: text('opening_message').notNull().default(''),
    suggestedQuestions: jsonb('suggested_questions').$type<string[]>().notNull().default([]),
    modelKeyId: uuid('model_key_id'),
    params: jsonb('params').$type<{ temperature: number; max_tokens: number | null }>().notNull(),
    attachments: jsonb('attachments')
      .$type<{ knowledge_ids: string[]; workflow_ids: string[]; mcp_tools: string[] }>()
      .notNull(),
    /** Random part of the public share link; null when sharing is off. */
    shareCode: text('share_code'),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('agents_space_idx').on(t.spaceId, t.createdAt),
    uniqueIndex('agents_public_id_key').on(t.publicId),
    uniqueIndex('agents_share_code_key').on(t.shareCode),
  ],
);

export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    spaceId: uuid('space_id').notNull(),
    /** A signed-in member (playground) … */
    userId: uuid('user_id').references(() => users.id),
    /** … or a share-page visitor (random id kept in their browser). */
    visitorId: text('visitor_id'),
    /** playground | share | api */
    channel: text('channel').notNull(),
    title: text('title').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('conversations_owner_idx').on(t.agentId, t.userId, t.updatedAt)],
);

export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    /** user | assistant */
    role: text('role').notNull(),
    content: text('content').notNull(),
    /** complete | streaming | stopped | error */
    status: text('status').notNull(),
    error: text('error'),
    /** Knowledge sources an assistant answer cites ([n] markers), see the contract's citationSchema. */
    citations: jsonb('citations').$type<unknown[]>().notNull().default([]),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('messages_conversation_idx').on(t.conversationId, t.createdAt)],
);

export const agentApiKeys = pgTable(
  'agent_api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    spaceId: uuid('space_id').notNull(),
    name: text('name').notNull(),
    keyHash: text('key_hash').notNull(),
    prefix: text('prefix').notNull(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    useCount: integer('use_count').notNull().default(0),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('agent_api_keys_hash_key').on(t.keyHash), index('agent_api_keys_agent_idx').on(t.agentId)],
);

/** Custom AI business: a space asks the platform's operators for a custom solution. */
export const customBusinessRequests = pgTable(
  'custom_business_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    requesterId: uuid('requester_id')
      .notNull()
      .references(() => users.id),
    title: text('title').notNull(),
    scenario: text('scenario').notNull(),
    requirements: text('requirements').notNull(),
    contactName: text('contact_name').notNull(),
    contactPhone: text('contact_phone'),
    contactEmail: text('contact_email'),
    budgetRange: text('budget_range').notNull(),
    expectedDate: date('expected_date', { mode: 'string' }),
    /** submitted | in_review | quoted | accepted | closed */
    status: text('status').notNull(),
    quoteFen: bigint('quote_fen', { mode: 'number' }),
    quoteNote: text('quote_note'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('custom_business_requests_space_idx').on(t.spaceId, t.createdAt),
    index('custom_business_requests_status_idx').on(t.status, t.createdAt),
    index('custom_business_requests_created_idx').on(t.createdAt),
  ],
);

/** Files uploaded for a request; `request_id` stays null until the request is submitted. */
export const customBusinessAttachments = pgTable(
  'custom_business_attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    spaceId: uuid('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    uploadedBy: uuid('uploaded_by')
      .notNull()
      .references(() => users.id),
    requestId: uuid('request_id').references(() => customBusinessRequests.id, { onDelete: 'cascade' }),
    /** The original file name, cleaned of paths and control characters. */
    name: text('name').notNull(),
    size: integer('size').notNull(),
    /** What the bytes are (sniffed), never what the client claimed. */
    contentType: text('content_type').notNull(),
    /** Object storage key; it holds a random secret and never leaves the server. */
    storageKey: text('storage_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('custom_business_attachments_request_idx').on(t.requestId),
    index('custom_business_attachments_uploader_idx').on(t.uploadedBy, t.createdAt),
  ],
);

/** Every status change of a request, its creation included (from_status null). */
export const customBusinessStatusHistory = pgTable(
  'custom_business_status_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => customBusinessRequests.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    actorId: uuid('actor_id')
      .notNull()
      .references(() => users.id),
    /** The actor acted as a platform operator (not as a member of the space). */
    byOperator: boolean('by_operator').notNull().default(false),
    note: text('note'),
    quoteFen: bigint('quote_fen', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [index('custom_business_history_request_idx').on(t.requestId, t.id)],
);

// Knowledge bases live in their own file; re-exported so drizzle and the app see one schema.
export * from './knowledge-schema.ts';
