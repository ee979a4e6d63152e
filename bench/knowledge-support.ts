// Shared by the knowledge benchmarks (bench/knowledge-*.ts); not a benchmark itself.
// The real application (buildApp) on embedded PGlite, driven through its routes with app.inject,
// plus the fake OpenAI server in a child process (like a remote embedding endpoint).
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { KNOWLEDGE_UPLOAD_PATH, type KnowledgeBase, type KnowledgeUnit } from '@athena/contract';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig, MIGRATIONS_DIR } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/platform/db/database.ts';
import { createDevWechatProvider } from '../apps/server/src/platform/wechat/dev-wechat.ts';
import { root, TEST_CODE, TEST_PHONE, tempDataDir } from './support.ts';

const API = '/api/athena/v1';

/** `file` (default): a PGlite data directory on disk, as `npm start` runs; `memory`: as the tests do. */
export type DbKind = 'file' | 'memory';
export const dbKindFromEnv = (): DbKind => (process.env.BENCH_DB === 'memory' ? 'memory' : 'file');

/** 256 dimensions: the fake's lexical mode needs ≥ 256 to separate texts (its README). */
export const LEXICAL_MODEL = 'fake-lexical-embed-d256';
export const LEXICAL_DIMS = 256;

// Whatever happens (an error, Ctrl-C, a timeout's SIGTERM), temporary data directories and the
// fake's process do not outlive the benchmark.
const cleanups: (() => void)[] = [];
process.once('exit', () => {
  for (const cleanup of cleanups) cleanup();
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

/** Fixed, so a kept data directory's model keys stay readable by the next run. Benchmarks only. */
const BENCH_MASTER_KEY = Buffer.alloc(32, 7);

export async function openBenchApp(opts: {
  db: DbKind;
  env?: Record<string, string>;
  /** A data directory that outlives the run (file only): reused when it exists, never removed. */
  keepDir?: string;
  /** The bench team of a kept directory, instead of creating one. */
  spaceId?: string;
}) {
  const dataDir = opts.db === 'memory' ? 'memory://' : (opts.keepDir ?? tempDataDir());
  const temporary = dataDir !== 'memory://' && !opts.keepDir;
  if (temporary) cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST: '/nonexistent',
    SMS_TEST_NUMBERS: `${TEST_PHONE}:${TEST_CODE}`,
    ALLOW_PRIVATE_MODEL_ENDPOINTS: 'true',
    // A product setting to try without editing code, e.g. KNOWLEDGE_EF_SEARCH=100.
    ...(process.env.KNOWLEDGE_EF_SEARCH ? { KNOWLEDGE_EF_SEARCH: process.env.KNOWLEDGE_EF_SEARCH } : {}),
    ...(process.env.PGLITE_SHARED_BUFFERS ? { PGLITE_SHARED_BUFFERS: process.env.PGLITE_SHARED_BUFFERS } : {}),
    ...opts.env,
  });
  const database = await openDatabase({
    dataDir,
    migrationsFolder: MIGRATIONS_DIR,
    sharedBuffers: config.PGLITE_SHARED_BUFFERS,
  });
  await database.migrate();
  const app = await buildApp({
    config,
    database,
    sms: { name: 'dev', sendCode: async () => {} },
    wechat: createDevWechatProvider(config.PUBLIC_URL),
    masterKey: BENCH_MASTER_KEY,
    logger: false,
  });
  await app.ready();

  const inject = async <T>(path: string, body: unknown, headers: Record<string, string>) => {
    const res = await app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify(body ?? {}),
    });
    const json = res.json() as { code: number; msg: string; data: T };
    if (json.code !== 0) throw new Error(`${path}: ${json.code} ${json.msg} ${JSON.stringify(json.data)}`);
    return json.data;
  };

  const login = await inject<{ login_token: string }>(
    '/accountv2/login/by_sms',
    { phone: TEST_PHONE, code: TEST_CODE },
    {},
  );
  const token = login.login_token;
  const userId = (await inject<{ id: string }>('/accountv2/user/info', {}, { token })).id;
  const spaceId = opts.spaceId ?? (await inject<{ id: string }>(`${API}/team/create`, { name: 'Bench' }, { token })).id;
  const headers = { token, 'space-id': spaceId };
  const call = <T>(path: string, body: unknown) => inject<T>(`${API}/${path}`, body, headers);

  return {
    app,
    config,
    database,
    modules: app.modules,
    db: database.db,
    dataDir,
    spaceId,
    userId,
    call,

    /** An embedding key of the bench space at `baseUrl`. */
    async addEmbeddingKey(baseUrl: string, version: string) {
      const key = await call<{ id: string }>('model_key/create', {
        model_name: 'Bench embed',
        version,
        base_url: baseUrl,
        api_key: 'sk-fake',
        purpose: 'embedding',
      });
      return key.id;
    },

    createBase(name: string, embeddingKeyId: string | null) {
      return call<KnowledgeBase>('knowledge/create', { name, embedding_model_key_id: embeddingKeyId });
    },

    /** The upload route with the raw bytes, as the web client sends them. */
    async upload(knowledgeId: string, fileName: string, bytes: Uint8Array) {
      const query = new URLSearchParams({ knowledge_id: knowledgeId, file_name: fileName });
      const res = await app.inject({
        method: 'POST',
        url: `${KNOWLEDGE_UPLOAD_PATH}?${query}`,
        headers: { ...headers, 'content-type': 'application/octet-stream' },
        payload: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      });
      const json = res.json() as { code: number; msg: string; data: KnowledgeUnit };
      if (json.code !== 0) throw new Error(`upload ${fileName}: ${json.code} ${json.msg}`);
      return json.data;
    },

    /** Queues units with automatic chunking (the queue is not attached, so nothing else picks them up). */
    async startAuto(ids: string[]) {
      return (await call<{ items: KnowledgeUnit[] }>('knowledge/unit/start', { ids, chunking: { mode: 'auto' } }))
        .items;
    },

    async close() {
      await app.close();
      await database.close();
      if (temporary) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type BenchApp = Awaited<ReturnType<typeof openBenchApp>>;

/**
 * The fake OpenAI server in its own process (`packages/fake-openai/src/cli.ts`), so its work runs
 * beside the product instead of on the product's event loop, as a remote endpoint would.
 */
export async function startFakeProcess(models: string[]): Promise<{ url: string; close: () => Promise<void> }> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'packages/fake-openai/src/cli.ts', '--port', '0', '--models', models.join(',')],
    { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  cleanups.push(() => child.kill('SIGTERM'));
  if (!child.stdout) throw new Error('fake-openai: no stdout');
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`fake-openai exited (${code})`)));
  });
  return {
    url,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export const DEFAULT_FAKE_MODELS = ['fake-chat', 'fake-embed', 'fake-lexical-embed', LEXICAL_MODEL];

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))];
}

export const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

/** A plain Markdown table, printed as is (it pastes into docs/benchmarks.md). */
export function printTable(header: string[], rows: (string | number)[][]) {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  console.log(line(header));
  console.log(line(header.map(() => '---')));
  for (const row of rows) console.log(line(row));
}

export const today = () => new Date().toISOString().slice(0, 10);

/** Machine facts for the figures' header. */
export async function machineLine(): Promise<string> {
  const os = await import('node:os');
  const cpus = os.cpus();
  const load = os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  return `${cpus.length} × ${cpus[0]?.model.trim() ?? 'CPU'}, Node ${process.version}, load average ${load}`;
}

/** e.g. "PGlite shared_buffers 400MB (PGLITE_SHARED_BUFFERS auto)": it decides how fast large indexes are read. */
export async function sharedBuffersLine(bench: BenchApp): Promise<string> {
  const result = await bench.database.executeSql('SHOW shared_buffers');
  const value = (result as { rows: { shared_buffers: string }[] }).rows[0].shared_buffers;
  return `PGlite shared_buffers ${value} (PGLITE_SHARED_BUFFERS ${bench.config.PGLITE_SHARED_BUFFERS})`;
}
