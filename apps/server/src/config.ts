import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const here = path.dirname(fileURLToPath(import.meta.url));
// The same depth from src/ (tsx) and dist/ (the bundle npm start runs).
const repoRoot = path.resolve(here, '../../..');
export const MIGRATIONS_DIR = path.join(repoRoot, 'apps/server/drizzle');

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .default('false')
  .transform((v) => v === 'true' || v === '1');
const int = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v ? v : undefined));

/** `13800000000:246810,13900000000:135790` → Map(phone → fixed code). */
const testNumbers = z
  .string()
  .default('')
  .transform((value, ctx) => {
    const map = new Map<string, string>();
    for (const pair of value
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const match = /^(1[3-9]\d{9}):(\d{4,6})$/.exec(pair);
      if (!match) {
        ctx.addIssue({ code: 'custom', message: `"${pair}" is not phone:code (e.g. 13800000000:246810)` });
        return z.NEVER;
      }
      map.set(match[1], match[2]);
    }
    return map;
  });

/** `13800000000,13900000000` → Set of the phone numbers whose accounts are platform operators. */
const phoneSet = z
  .string()
  .default('')
  .transform((value, ctx) => {
    const phones = new Set<string>();
    for (const phone of value
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      if (!/^1[3-9]\d{9}$/.test(phone)) {
        ctx.addIssue({ code: 'custom', message: `"${phone}" is not an 11-digit mainland mobile number` });
        return z.NEVER;
      }
      phones.add(phone);
    }
    return phones;
  });

/** `wechat,alipay` → the payment channels on offer, in the order the recharge dialog shows them. */
/** A program's path, checked at start: a wrong one would otherwise show only as failed previews. */
const executable = optionalString.refine(
  (file) => {
    if (file === undefined) return true;
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  },
  { message: 'is not an executable file' },
);

const paymentChannels = z
  .string()
  .default('dev')
  .transform((value, ctx) => {
    const channels: ('wechat' | 'alipay' | 'dev')[] = [];
    for (const name of value
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      if (name !== 'wechat' && name !== 'alipay' && name !== 'dev') {
        ctx.addIssue({ code: 'custom', message: `"${name}" is not one of wechat, alipay, dev` });
        return z.NEVER;
      }
      if (!channels.includes(name)) channels.push(name);
    }
    return channels;
  });

const envSchema = z
  .object({
    PORT: int(3000),
    HOST: z.string().default('0.0.0.0'),
    PUBLIC_URL: optionalString,
    DATA_DIR: z.string().default(path.join(repoRoot, 'data')),
    DATABASE_URL: optionalString,
    /** An S3-compatible bucket for uploaded files (see platform/storage-s3.ts); unset: DATA_DIR/files. */
    STORAGE_URL: optionalString,
    /** Media library bytes per team (items, trash and uploads in flight); 50 GiB by default. */
    MEDIA_QUOTA_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(50 * 1024 ** 3),
    /** ffmpeg and ffprobe for media previews; unset: the binaries the registry packages ship. */
    FFMPEG_PATH: executable,
    FFPROBE_PATH: executable,
    /** PGlite's buffer cache: 'auto' sizes it by the database at start-up (platform/db/database.ts). */
    PGLITE_SHARED_BUFFERS: z
      .string()
      .regex(/^(\d+(kB|MB|GB)|auto)$/)
      .default('auto'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    ATHENA_MASTER_KEY: optionalString,
    TRUST_PROXY: bool,
    BODY_LIMIT_BYTES: int(1024 * 1024),
    WEB_DIST: z.string().default(path.join(repoRoot, 'apps/web/dist')),
    SESSION_TTL_DAYS: int(30),
    AGENT_API_BASE: z.string().default(''),
    /**
     * Scenes whose chat-history calls another host serves (the scene's quntool_host), as
     * `scene=https://host` pairs separated by commas, e.g. `19=https://xhs.example.com`.
     */
    SCENE_HOSTS: z
      .string()
      .default('')
      .transform((value, context) => {
        const hosts: Record<string, string> = {};
        for (const pair of value
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean)) {
          const [scene = '', url = ''] = pair.split(/=(.*)/s, 2);
          if (!/^\d{1,6}$/.test(scene.trim()) || !/^https?:\/\/[^\s/]+/.test(url.trim())) {
            context.addIssue({ code: 'custom', message: `"${pair}" is not scene=https://host` });
            continue;
          }
          hosts[scene.trim()] = url.trim().replace(/\/+$/, '');
        }
        return hosts;
      }),
    /**
     * Who may frame the embeddable pages (/only-chat-history, /only-user-profile, share links):
     * CSP frame-ancestors sources separated by spaces or commas, e.g. `https://crm.example.com`.
     * Every other page refuses to be framed.
     */
    FRAME_ANCESTORS: z
      .string()
      .default("'self'")
      .transform((value) => value.split(/[\s,]+/).filter(Boolean)),
    /** Lets model endpoints (and later webhooks) reach private and loopback addresses: local Ollama/vLLM. */
    ALLOW_PRIVATE_MODEL_ENDPOINTS: bool,
    /** How long a model key test may take before it reports a timeout. */
    MODEL_TEST_TIMEOUT_MS: int(15_000),
    /**
     * On SIGTERM: how long open streams (chat answers) may take to finish before they are told the
     * server is restarting and closed, so a stop is bounded whatever a model does. The whole stop
     * takes at most this plus 2.5 s: 7 s keeps it inside the 10 s Docker and systemd wait before
     * SIGKILL.
     */
    SHUTDOWN_GRACE_MS: int(7_000),

    /** Knowledge indexing: units indexed at once per process, a worker's lease, texts per embedding call. */
    KNOWLEDGE_INDEX_CONCURRENCY: int(2),
    KNOWLEDGE_LEASE_SECONDS: int(60),
    KNOWLEDGE_EMBED_BATCH: int(32),
    /**
     * Vector search: candidates the HNSW graph search keeps (pgvector's hnsw.ef_search). pgvector's
     * 40 finds about 8 of the true 10 nearest on 100 000 real model vectors, 200 finds 9.5
     * (docs/benchmarks.md); search time grows with it.
     */
    KNOWLEDGE_EF_SEARCH: z.coerce.number().int().min(10).max(1000).default(200),
    /**
     * Uploaded files are read in worker threads (docs/knowledge.md, "Parsing hostile files"):
     * threads at once, each one's heap, and how long one file may take before its thread is
     * ended and the file refused.
     */
    FILE_PARSE_WORKERS: int(2),
    FILE_PARSE_HEAP_MB: z.coerce.number().int().min(32).default(1024),
    FILE_PARSE_TIMEOUT_MS: int(60_000),
    /**
     * Code and template nodes run in sandbox threads (docs/workflow-sandbox.md): QuickJS threads
     * (JavaScript, templates) and Python threads at once, what one JavaScript run or template may
     * allocate, the WebAssembly memory a Python thread may reach (interpreter included), and the
     * longest one run may take.
     */
    CODE_SANDBOX_WORKERS: int(2),
    CODE_SANDBOX_PYTHON_WORKERS: int(1),
    CODE_SANDBOX_MEMORY_MB: z.coerce.number().int().min(8).max(1024).default(64),
    CODE_SANDBOX_PYTHON_MEMORY_MB: z.coerce.number().int().min(128).max(2048).default(512),
    CODE_SANDBOX_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),

    /**
     * Seconds a chat-history live stream stays open before it says goodbye and the page reconnects:
     * a removed member's stream ends within this, and load balancers can move readers.
     */
    CHAT_LIVE_SECONDS: z.coerce.number().int().min(1).max(3_600).default(300),

    /** Calls per minute each agent API key may make to the OpenAI-compatible API (docs/agents.md). */
    AGENT_API_CALLS_PER_MINUTE: int(60),
    /** Calls per minute each workflow API key may make to POST /v1/workflows/run (docs/workflow-triggers.md). */
    WORKFLOW_API_CALLS_PER_MINUTE: int(60),
    /** Requests per minute each MCP access token may make to the team's MCP server (docs/mcp.md). */
    MCP_CALLS_PER_MINUTE: int(120),
    /**
     * Signed webhooks: calls per minute from one address (IPv6: its /64), counted before the hook
     * is looked up; and calls per minute with a valid signature to one hook.
     */
    WORKFLOW_WEBHOOK_PER_ADDRESS_PER_MINUTE: int(300),
    WORKFLOW_WEBHOOK_PER_HOOK_PER_MINUTE: int(60),
    /** Share-page chat: messages per window for each visitor, and for each address (IPv6: /64), of one link. */
    SHARE_CHAT_PER_VISITOR: int(20),
    SHARE_CHAT_PER_ADDRESS: int(60),
    SHARE_CHAT_WINDOW_SECONDS: int(600),

    /** Accounts (by phone) that review, quote and close custom AI business requests; empty: none. */
    OPERATOR_PHONES: phoneSet,

    SMS_PROVIDER: z.enum(['dev', 'aliyun']).default('dev'),
    SMS_TEST_NUMBERS: testNumbers,
    /**
     * SMS caps (docs/auth.md). One number: each further code within 24 h waits twice as long as the
     * one before, at most this long, so nobody can shut its owner out for the day. One client
     * address (an IPv6 /64): a hard cap per 24 h.
     */
    SMS_PHONE_MAX_WAIT_SECONDS: z.coerce.number().int().min(15).default(900),
    SMS_DAILY_LIMIT_PER_IP: int(50),
    ALIYUN_SMS_ENDPOINT: z.string().url().default('https://dysmsapi.aliyuncs.com'),
    ALIYUN_SMS_ACCESS_KEY_ID: optionalString,
    ALIYUN_SMS_ACCESS_KEY_SECRET: optionalString,
    ALIYUN_SMS_SIGN_NAME: optionalString,
    ALIYUN_SMS_TEMPLATE_CODE: optionalString,

    WECHAT_PROVIDER: z.enum(['dev', 'official']).default('dev'),
    WECHAT_QR_TTL_SECONDS: int(300),
    WECHAT_API_BASE: z.string().url().default('https://api.weixin.qq.com'),
    /** WeCom's API, for the teams' customer-service connections (docs/wecom.md). */
    WECOM_API_BASE: z.string().url().default('https://qyapi.weixin.qq.com'),
    WECHAT_APP_ID: optionalString,
    WECHAT_APP_SECRET: optionalString,
    WECHAT_CALLBACK_TOKEN: optionalString,

    /** docs/billing.md: `dev` is the offline cashier; never offer it where real money is expected. */
    PAYMENT_CHANNELS: paymentChannels,
    WECHAT_PAY_API_BASE: z.string().url().default('https://api.mch.weixin.qq.com'),
    WECHAT_PAY_MCH_ID: optionalString,
    WECHAT_PAY_APP_ID: optionalString,
    /** The merchant API certificate's serial number, and its private key (PEM, or a file path). */
    WECHAT_PAY_SERIAL_NO: optionalString,
    WECHAT_PAY_PRIVATE_KEY: optionalString,
    WECHAT_PAY_API_V3_KEY: optionalString,
    /** WeChat Pay's public key (PEM or path) and its id `PUB_KEY_ID_…`, or a platform certificate. */
    WECHAT_PAY_PUBLIC_KEY_ID: optionalString,
    WECHAT_PAY_PUBLIC_KEY: optionalString,
    WECHAT_PAY_PLATFORM_CERT: optionalString,
    ALIPAY_GATEWAY: z.string().url().default('https://openapi.alipay.com/gateway.do'),
    ALIPAY_APP_ID: optionalString,
    /** The merchant's partner id (2088…), checked against every notification's seller_id. */
    ALIPAY_SELLER_ID: optionalString,
    ALIPAY_PRIVATE_KEY: optionalString,
    ALIPAY_PUBLIC_KEY: optionalString,

    REALNAME_PROVIDER: z.enum(['dev', 'tencent']).default('dev'),
    TENCENT_SECRET_ID: optionalString,
    TENCENT_SECRET_KEY: optionalString,
    TENCENT_FACEID_RULE_ID: optionalString,
    TENCENT_FACEID_ENDPOINT: z.string().url().default('https://faceid.tencentcloudapi.com'),
  })
  .superRefine((env, ctx) => {
    const need = (when: boolean, keys: (keyof typeof env)[], why: string) => {
      if (!when) return;
      for (const key of keys) {
        if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: `is required when ${why}` });
      }
    };
    need(
      env.SMS_PROVIDER === 'aliyun',
      ['ALIYUN_SMS_ACCESS_KEY_ID', 'ALIYUN_SMS_ACCESS_KEY_SECRET', 'ALIYUN_SMS_SIGN_NAME', 'ALIYUN_SMS_TEMPLATE_CODE'],
      'SMS_PROVIDER=aliyun',
    );
    need(
      env.WECHAT_PROVIDER === 'official',
      ['WECHAT_APP_ID', 'WECHAT_APP_SECRET', 'WECHAT_CALLBACK_TOKEN'],
      'WECHAT_PROVIDER=official',
    );
    need(
      env.PAYMENT_CHANNELS.includes('wechat'),
      [
        'WECHAT_PAY_MCH_ID',
        'WECHAT_PAY_APP_ID',
        'WECHAT_PAY_SERIAL_NO',
        'WECHAT_PAY_PRIVATE_KEY',
        'WECHAT_PAY_API_V3_KEY',
      ],
      'PAYMENT_CHANNELS includes wechat',
    );
    if (env.PAYMENT_CHANNELS.includes('wechat') && !env.WECHAT_PAY_PUBLIC_KEY && !env.WECHAT_PAY_PLATFORM_CERT) {
      ctx.addIssue({
        code: 'custom',
        path: ['WECHAT_PAY_PUBLIC_KEY'],
        message: 'or WECHAT_PAY_PLATFORM_CERT is required when PAYMENT_CHANNELS includes wechat',
      });
    }
    need(Boolean(env.WECHAT_PAY_PUBLIC_KEY), ['WECHAT_PAY_PUBLIC_KEY_ID'], 'WECHAT_PAY_PUBLIC_KEY is set');
    need(
      env.PAYMENT_CHANNELS.includes('alipay'),
      ['ALIPAY_APP_ID', 'ALIPAY_SELLER_ID', 'ALIPAY_PRIVATE_KEY', 'ALIPAY_PUBLIC_KEY'],
      'PAYMENT_CHANNELS includes alipay',
    );
    need(
      env.REALNAME_PROVIDER === 'tencent',
      ['TENCENT_SECRET_ID', 'TENCENT_SECRET_KEY', 'TENCENT_FACEID_RULE_ID'],
      'REALNAME_PROVIDER=tencent',
    );
  });

export type Config = z.output<typeof envSchema> & {
  PUBLIC_URL: string;
  /** Whether the operator set PUBLIC_URL; unset, links built here name localhost (the web re-bases them). */
  PUBLIC_URL_CONFIGURED: boolean;
};

export class ConfigError extends Error {}

/** Parses the environment; throws one error that lists every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(env)'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  return {
    ...config,
    PUBLIC_URL: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
    PUBLIC_URL_CONFIGURED: config.PUBLIC_URL !== undefined,
  };
}
