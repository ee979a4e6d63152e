// The team's MCP server (docs/mcp.md) on the product started as the README does (`npm start`), over
// HTTP: docs/benchmarks.md, "MCP server: knowledge search through MCP". Issue 18's target: a
// knowledge search tool call through MCP adds at most 5 ms (p50) over the same search through our
// own API, and 50 concurrent clients are served without errors.
// 1. The fake OpenAI server runs in its own process (lexical embeddings, 256 d). A team gets an
//    embedding key on it and one knowledge base (hybrid, top 5: the defaults) filled through the
//    upload and start routes with the 36 evaluation documents of bench/knowledge-eval, BENCH_COPIES
//    times each (a first line "Copy n." tells the copies apart), indexed by the product's own jobs.
// 2. Through the API: the MCP server is switched on, the base is exposed as a tool, tokens are made.
// 3. BENCH_CALLS queries (the evaluation questions and 2–5 word phrases of the documents, seeded),
//    each done three ways, interleaved query by query in a rotating order: (a) `knowledge/search`
//    (the hit test: the same retrieve over the base's own settings that the tool runs), (b)
//    `tools/call` through one connected SDK client, (c) a fresh SDK client: initialize + call.
//    The product runs with MCP_CALLS_PER_MINUTE raised, so one token and one connected client serve
//    every request of this part (the per-token limit is a product setting, 120 by default).
// 4. BENCH_CLIENTS (50) SDK clients at once, each with its own token, BENCH_ROUNDS (20) calls each;
//    then the same load on the API route, for comparison.
// 5. The MCP Inspector's CLI (BENCH_INSPECTOR, a pinned npm spec; "off" skips it) through `npx -y`:
//    tools/list and tools/call against the product.
// Run: npx tsx bench/mcp.ts             (embedded database in a temporary directory)
//      DATABASE_URL=postgres://… npx tsx bench/mcp.ts
// Settings: BENCH_PORT (3361), BENCH_CALLS (300), BENCH_CLIENTS (50), BENCH_ROUNDS (20), BENCH_COPIES (24),
// BENCH_INSPECTOR (@modelcontextprotocol/inspector@2.12.0).
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KNOWLEDGE_UPLOAD_PATH } from '@athena/contract';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { LEXICAL_MODEL, machineLine, percentile, printTable, startFakeProcess, today } from './knowledge-support.ts';
import { seeded, shuffle } from './seeded.ts';
import { post, root, signIn, startProduct, stop, tempDataDir, waitUntil } from './support.ts';

const PORT = Number(process.env.BENCH_PORT ?? 3361);
const CALLS = Number(process.env.BENCH_CALLS ?? 300);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const COPIES = Number(process.env.BENCH_COPIES ?? 24);
const INSPECTOR = process.env.BENCH_INSPECTOR ?? '@modelcontextprotocol/inspector@2.12.0';
/** Requests one token may make before the next takes over (the limit is raised for the run below). */
const TOKEN_BUDGET = 1_000_000;
const WARMUP = 20;

const base = `http://127.0.0.1:${PORT}`;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

console.log('npx tsx bench/mcp.ts');
console.log(
  `${today()}, ${await machineLine()}, ${process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite (temp dir)'}`,
);

// ---------------------------------------------------------------------------------------------
// The product, the fake model and a knowledge base.

const fake = await startFakeProcess([LEXICAL_MODEL]);
const dataDir = tempDataDir();
// The fake listens on 127.0.0.1: the outbound guard must let the product reach it.
process.env.ALLOW_PRIVATE_MODEL_ENDPOINTS = 'true';
// Measured is the endpoint, not its per-token rate limit.
process.env.MCP_CALLS_PER_MINUTE = '1000000';
const product = startProduct({ port: PORT, dataDir, logLevel: 'warn' });
const cleanUp = async () => {
  await stop(product).catch(() => {});
  await fake.close().catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
};

type Hit = { segment: { id: string }; score: number };
type Search = { items: Hit[]; mode: string };

try {
  await waitUntil(async () => (await fetch(`${base}/api/athena/v1/platform/info`, { method: 'POST' })).ok, 300_000);
  const login = await signIn(base);
  const info = await post<{ space: { id: string } }>(`${base}/accountv2/user/info`, {}, { token: login });
  const spaceId = info.space.id;
  const headers = { token: login, 'space-id': spaceId };
  const api = <T>(route: string, body: unknown) => post<T>(`${base}/api/athena/v1/${route}`, body, headers);

  const keyId = (
    await api<{ id: string }>('model_key/create', {
      model_name: 'Bench embed',
      version: LEXICAL_MODEL,
      base_url: fake.url,
      api_key: 'sk-fake',
      purpose: 'embedding',
    })
  ).id;
  const knowledgeId = (
    await api<{ id: string }>('knowledge/create', { name: 'MCP bench', embedding_model_key_id: keyId })
  ).id;

  const evalDir = path.join(root, 'bench/knowledge-eval/documents');
  const docs = readdirSync(evalDir)
    .sort()
    .map((name) => ({ name, text: readFileSync(path.join(evalDir, name), 'utf8') }));
  const loadStarted = performance.now();
  const unitIds: string[] = [];
  for (let copy = 1; copy <= COPIES; copy++) {
    for (const doc of docs) {
      const query = new URLSearchParams({ knowledge_id: knowledgeId, file_name: `copy${copy}-${doc.name}` });
      const res = await fetch(`${base}${KNOWLEDGE_UPLOAD_PATH}?${query}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/octet-stream' },
        body: `Copy ${copy}.\n\n${doc.text}`,
      });
      const json = (await res.json()) as { code: number; msg: string; data: { id: string } };
      if (json.code !== 0) throw new Error(`upload ${doc.name}: ${json.code} ${json.msg}`);
      unitIds.push(json.data.id);
    }
  }
  for (let i = 0; i < unitIds.length; i += 50) {
    await api('knowledge/unit/start', { ids: unitIds.slice(i, i + 50), chunking: { mode: 'auto' } });
  }
  type Unit = { status: string; segment_count: number };
  let units: Unit[] = [];
  await waitUntil(async () => {
    units = (await api<{ items: Unit[] }>('knowledge/unit/list', { knowledge_id: knowledgeId })).items;
    if (units.some((unit) => unit.status === 'failed' || unit.status === 'canceled')) {
      throw new Error('a unit failed to index');
    }
    return units.length === unitIds.length && units.every((unit) => unit.status === 'indexed');
  }, 600_000);
  const segments = units.reduce((sum, unit) => sum + unit.segment_count, 0);
  console.log(
    `knowledge base: ${units.length} files (${docs.length} documents × ${COPIES}), ${segments} segments, ` +
      `hybrid, top 5, indexed through the product in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
  );

  // -------------------------------------------------------------------------------------------
  // The MCP server on, the base as a tool, tokens.

  const settings = await api<{ endpoint_path: string }>('mcp/settings/set', { enabled: true });
  const endpoint = new URL(`${base}${settings.endpoint_path}`);
  const tool = await api<{ name: string }>('mcp/tool/add', { kind: 'knowledge', target_id: knowledgeId });
  let tokenCount = 0;
  const newToken = async () =>
    api<{ id: string; token: string }>('mcp/token/create', { name: `bench ${++tokenCount}` });
  const revoke = (id: string) => api('mcp/token/revoke', { id });

  async function connect(bearer: string) {
    const client = new Client({ name: 'athena-bench', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(endpoint, {
      requestInit: { headers: { authorization: `Bearer ${bearer}` } },
    });
    await client.connect(transport);
    return client;
  }
  const callTool = async (client: Client, query: string) => {
    const result = (await client.callTool({ name: tool.name, arguments: { query } })) as CallToolResult;
    if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.content).slice(0, 300)}`);
    const structured = result.structuredContent as { items: { source: { segment_id: string } }[] };
    return structured.items.map((item) => item.source.segment_id);
  };
  const searchApi = async (query: string) =>
    (await api<Search>('knowledge/search', { knowledge_id: knowledgeId, query })).items.map((hit) => hit.segment.id);

  // -------------------------------------------------------------------------------------------
  // Queries: the evaluation questions and phrases of 2–5 words from the documents, seeded.

  const random = seeded(20261127);
  const questions = (
    JSON.parse(readFileSync(path.join(root, 'bench/knowledge-eval/questions.json'), 'utf8')) as { question: string }[]
  ).map((q) => q.question);
  const phrases: string[] = [];
  while (phrases.length < CALLS) {
    const doc = docs[Math.floor(random() * docs.length)];
    const zh = doc.name.startsWith('zh-');
    const words = zh
      ? (doc.text.match(/\p{Script=Han}+/gu) ?? []).filter((w) => w.length >= 4)
      : doc.text.split(/[^A-Za-z'-]+/).filter((w) => w.length > 2);
    if (words.length < 6) continue;
    if (zh) {
      const run = words[Math.floor(random() * words.length)];
      const from = Math.floor(random() * Math.max(1, run.length - 4));
      phrases.push(run.slice(from, from + 4 + Math.floor(random() * 5)));
    } else {
      const from = Math.floor(random() * (words.length - 5));
      phrases.push(words.slice(from, from + 2 + Math.floor(random() * 4)).join(' '));
    }
  }
  const pool = shuffle([...questions, ...phrases.slice(0, Math.max(0, CALLS - questions.length))], random);
  const queries = Array.from({ length: CALLS }, (_, i) => pool[i % pool.length]);

  // -------------------------------------------------------------------------------------------
  // Latency: API, connected MCP client, fresh MCP client, interleaved.

  /** A token with room for `cost` more requests; a new one (and the old revoked) when it has none. */
  let current = { ...(await newToken()), used: 0 };
  let client = await connect(current.token);
  current.used += 2; // initialize + notifications/initialized
  async function budget(cost: number) {
    if (current.used + cost <= TOKEN_BUDGET) {
      current.used += cost;
      return;
    }
    await client.close();
    await revoke(current.id);
    current = { ...(await newToken()), used: 2 + cost };
    client = await connect(current.token);
  }
  /** initialize, notifications/initialized and tools/call: three POSTs (the 405 of GET is not counted). */
  const FRESH_COST = 3;

  for (const query of queries.slice(0, WARMUP)) {
    await searchApi(query);
    await budget(1);
    await callTool(client, query);
  }

  const times = { api: [] as number[], mcp: [] as number[], fresh: [] as number[] };
  let mismatches = 0;
  let emptyResults = 0;
  for (let i = 0; i < queries.length; i++) {
    const query = queries[i];
    let apiIds: string[] = [];
    let mcpIds: string[] = [];
    const ways = [
      async () => {
        const t0 = performance.now();
        apiIds = await searchApi(query);
        times.api.push(performance.now() - t0);
      },
      async () => {
        await budget(1);
        const t0 = performance.now();
        mcpIds = await callTool(client, query);
        times.mcp.push(performance.now() - t0);
      },
      async () => {
        await budget(FRESH_COST);
        const t0 = performance.now();
        const fresh = await connect(current.token);
        await callTool(fresh, query);
        times.fresh.push(performance.now() - t0);
        await fresh.close();
      },
    ];
    // A rotating order, so neither way is always the one after the other (caches, the event loop).
    for (let k = 0; k < ways.length; k++) await ways[(i + k) % ways.length]();
    if (apiIds.join() !== mcpIds.join()) mismatches += 1;
    if (apiIds.length === 0) emptyResults += 1;
  }
  // Where the difference goes: the door alone. An MCP `ping` (token, rate limit, a server and
  // transport built, the JSON-RPC answer) beside the smallest signed-in API route (session, one read).
  const doors = { ping: [] as number[], settings: [] as number[] };
  for (let i = 0; i < Math.min(100, queries.length); i++) {
    await budget(1);
    let t0 = performance.now();
    await client.ping();
    doors.ping.push(performance.now() - t0);
    t0 = performance.now();
    await api('mcp/settings/get', {});
    doors.settings.push(performance.now() - t0);
  }
  await client.close();
  await revoke(current.id);

  const pairwise = sorted(times.mcp.map((value, i) => value - times.api[i]));
  const pairwiseFresh = sorted(times.fresh.map((value, i) => value - times.api[i]));
  const row = (label: string, values: number[]) => {
    const s = sorted(values);
    return [label, ms(percentile(s, 0.5)), ms(percentile(s, 0.95)), ms(percentile(s, 0.99)), ms(s[s.length - 1])];
  };
  console.log(
    `\nlatency, ${queries.length} queries each way, interleaved (${tokenCount} tokens: a new one every ${TOKEN_BUDGET} requests)`,
  );
  printTable(
    ['way', 'p50', 'p95', 'p99', 'max'],
    [
      row('(a) API `knowledge/search`', times.api),
      row('(b) MCP `tools/call`, connected client', times.mcp),
      row('(c) MCP initialize + `tools/call`, fresh client', times.fresh),
    ],
  );
  const p50 = (values: number[]) => percentile(sorted(values), 0.5);
  console.log(
    `added latency (b − a): p50 of pairwise differences ${ms(percentile(pairwise, 0.5))} ` +
      `(p95 ${ms(percentile(pairwise, 0.95))}); difference of p50s ${ms(p50(times.mcp) - p50(times.api))}`,
  );
  console.log(
    `fresh client (c − a): p50 of pairwise differences ${ms(percentile(pairwiseFresh, 0.5))}; ` +
      `difference of p50s ${ms(p50(times.fresh) - p50(times.api))}`,
  );
  console.log(
    `the door alone (${doors.ping.length} each, interleaved): MCP \`ping\` p50 ${ms(p50(doors.ping))}, ` +
      `API \`mcp/settings/get\` p50 ${ms(p50(doors.settings))}`,
  );
  console.log(`same segments in the same order through both: ${queries.length - mismatches}/${queries.length}`);
  console.log(`queries with no result: ${emptyResults}`);

  // -------------------------------------------------------------------------------------------
  // The MCP Inspector's CLI, a third-party client from the registry.

  if (INSPECTOR !== 'off') {
    const inspectorToken = await newToken();
    const inspect = (args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string; ms: number }>((resolve) => {
        const t0 = performance.now();
        execFile(
          'npx',
          [
            '-y',
            INSPECTOR,
            '--cli',
            endpoint.href,
            '--transport',
            'http',
            '--header',
            `Authorization: Bearer ${inspectorToken.token}`,
            ...args,
          ],
          // Outside the repository, so npx does not resolve anything from the workspace.
          { cwd: os.tmpdir(), timeout: 300_000, maxBuffer: 16 * 1024 * 1024 },
          (error, stdout, stderr) =>
            resolve({
              code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
              stdout,
              stderr,
              ms: performance.now() - t0,
            }),
        );
      });
    const trimmed = (text: string, chars: number) =>
      text.length > chars ? `${text.slice(0, chars)}… (${text.length} characters)` : text;
    const noise = (text: string) =>
      text
        .split('\n')
        .filter((line) => line.trim() && !/EBADENGINE|npm warn/.test(line))
        .join('\n');
    console.log(
      `\nMCP Inspector CLI: npx -y ${INSPECTOR} --cli <endpoint> --transport http --header "Authorization: …"`,
    );
    for (const args of [
      ['--method', 'tools/list'],
      ['--method', 'tools/call', '--tool-name', tool.name, '--tool-arg', 'query=annual leave carry over'],
    ]) {
      const answer = await inspect(args);
      console.log(`\n$ … ${args.join(' ')}   (exit ${answer.code}, ${(answer.ms / 1000).toFixed(1)} s with npx)`);
      console.log(trimmed(answer.stdout.trim(), 1200));
      const stderr = noise(answer.stderr);
      if (stderr) console.log(`stderr: ${trimmed(stderr, 600)}`);
    }
    await revoke(inspectorToken.id);
  }

  // -------------------------------------------------------------------------------------------
  // Concurrency: CLIENTS SDK clients at once, each its own token, ROUNDS calls each.

  const tokens: { id: string; token: string }[] = [];
  for (let c = 0; c < CLIENTS; c++) tokens.push(await newToken());
  async function load(kind: 'mcp' | 'api') {
    const latencies: number[] = [];
    const errors: string[] = [];
    const started = performance.now();
    await Promise.all(
      tokens.map(async (token, c) => {
        let mcp: Client | null = null;
        try {
          if (kind === 'mcp') mcp = await connect(token.token);
          for (let r = 0; r < ROUNDS; r++) {
            const query = queries[(c * ROUNDS + r) % queries.length];
            const t0 = performance.now();
            try {
              if (mcp) await callTool(mcp, query);
              else await searchApi(query);
              latencies.push(performance.now() - t0);
            } catch (error) {
              errors.push(String(error).slice(0, 200));
            }
          }
        } catch (error) {
          errors.push(`connect: ${String(error).slice(0, 200)}`);
        } finally {
          await mcp?.close();
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const s = sorted(latencies);
    return {
      row: [
        kind === 'mcp' ? 'MCP `tools/call` (SDK clients)' : 'API `knowledge/search`',
        CLIENTS * ROUNDS,
        errors.length,
        `${(latencies.length / seconds).toFixed(0)}/s`,
        ms(percentile(s, 0.5)),
        ms(percentile(s, 0.99)),
        `${seconds.toFixed(1)} s`,
      ],
      errors,
    };
  }
  const concurrentMcp = await load('mcp');
  const concurrentApi = await load('api');
  console.log(
    `\n${CLIENTS} concurrent clients × ${ROUNDS} calls (each MCP client its own token; the clients connect inside the timed span)`,
  );
  printTable(
    ['calls through', 'calls', 'errors', 'throughput', 'p50', 'p99', 'wall'],
    [concurrentMcp.row, concurrentApi.row],
  );
  for (const error of [...new Set([...concurrentMcp.errors, ...concurrentApi.errors])].slice(0, 5)) {
    console.log(`error: ${error}`);
  }

  const added = percentile(pairwise, 0.5);
  console.log(
    `\ntargets: added latency p50 ≤ 5 ms — ${ms(added)} (${added <= 5 ? 'met' : 'not met'}); ` +
      `${CLIENTS} concurrent clients without errors — ${concurrentMcp.errors.length} errors ` +
      `(${concurrentMcp.errors.length === 0 ? 'met' : 'not met'})`,
  );
  console.log(
    `load average at the end: ${os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await cleanUp();
}
