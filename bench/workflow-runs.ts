// Workflow runs over HTTP, on the product started as the README does (`npm start`):
// 1. start → LLM → end with 20 concurrent users for ~20 s against the fake OpenAI server (a fixed
//    pause per streamed chunk), and the same model request sent straight to the fake by 20 other
//    users at the same time: the latency a run adds beyond the model's own time;
// 2. 60 concurrent runs of a 3-node echo workflow (start → answer → end, and start → template →
//    end), a few rounds: time to the stream's first byte and to run_finished;
// 3. the server's RSS before and after.
// Run: npx tsx bench/workflow-runs.ts   (npm start builds the web app once if apps/web/dist is missing)
// Settings: BENCH_CPU_PROF (a directory: profile the server), BENCH_PORT (3347), BENCH_USERS (20), BENCH_SECONDS (20), BENCH_TOKEN_DELAY_MS (20),
// BENCH_SEQUENTIAL (50, interleaved one-at-a-time pairs), BENCH_CONCURRENT (60), BENCH_ROUNDS (5).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { WorkflowGraphInput } from '@athena/contract';
import { startFakeOpenAI } from '@athena/fake-openai';
import {
  post,
  root,
  rssMb,
  serverPid,
  signIn,
  startProduct,
  stop,
  TEST_CODE,
  TEST_PHONE,
  tempDataDir,
  waitUntil,
} from './support.ts';

const PORT = Number(process.env.BENCH_PORT ?? 3347);
const USERS = Number(process.env.BENCH_USERS ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const TOKEN_DELAY_MS = Number(process.env.BENCH_TOKEN_DELAY_MS ?? 20);
const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 50);
const CONCURRENT = Number(process.env.BENCH_CONCURRENT ?? 60);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const QUESTION = 'summarise the quarterly numbers';

const fake = await startFakeOpenAI({ tokenDelayMs: TOKEN_DELAY_MS });
process.env.ALLOW_PRIVATE_MODEL_ENDPOINTS = 'true';
const base = `http://127.0.0.1:${PORT}`;
// BENCH_CPU_PROF=<dir>: the server runs under `node --cpu-prof` (what npm start runs, without npm),
// and writes its profile there when it stops.
const profileDir = process.env.BENCH_CPU_PROF;
const product = profileDir
  ? spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, 'scripts/start.mjs'], {
      cwd: root,
      detached: true,
      env: {
        ...process.env,
        PORT: String(PORT),
        DATA_DIR: tempDataDir(),
        LOG_LEVEL: 'warn',
        SMS_TEST_NUMBERS: `${TEST_PHONE}:${TEST_CODE}`,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    })
  : startProduct({ port: PORT, dataDir: tempDataDir() });
await waitUntil(async () => (await fetch(`${base}/api/athena/v1/platform/info`, { method: 'POST' })).ok, 120_000);
const token = await signIn(base);
const info = await post<{ space: { id: string } }>(`${base}/accountv2/user/info`, {}, { token });
const headers = { token, 'space-id': info.space.id, 'content-type': 'application/json' };
const api = <T>(path: string, body: unknown) => post<T>(`${base}/api/athena/v1/${path}`, body, headers);

const key = await api<{ id: string }>('model_key/create', {
  model_name: 'Fake',
  version: 'fake-chat',
  base_url: fake.url,
  api_key: 'sk-fake',
  purpose: 'chat',
});

/** Creates a workflow, saves the graph as its draft and publishes it; answers the ids to run. */
async function published(name: string, graph: WorkflowGraphInput) {
  const created = await api<{ id: string; draft_revision: number }>('workflow/create', { name });
  const saved = await api<{ problems: unknown[] }>('workflow/draft/save', {
    id: created.id,
    graph,
    base_revision: created.draft_revision,
  });
  if (saved.problems.length > 0) throw new Error(`${name}: ${JSON.stringify(saved.problems)}`);
  const version = await api<{ id: string }>('workflow/publish', { id: created.id });
  return { workflow_id: created.id, version_id: version.id };
}

const startNode = { id: 'start', type: 'start', data: { inputs: [{ name: 'q', type: 'paragraph' }] } };
const llmFlow = await published('Bench LLM', {
  nodes: [
    startNode,
    { id: 'llm', type: 'llm', data: { model_key_id: key.id, user_prompt: '{{#start.q#}}' } },
    { id: 'end', type: 'end', data: { outputs: [{ name: 'a', selector: ['llm', 'text'] }] } },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'llm' },
    { id: 'e2', source: 'llm', target: 'end' },
  ],
} as WorkflowGraphInput);
const answerFlow = await published('Bench echo answer', {
  nodes: [
    startNode,
    { id: 'answer', type: 'answer', data: { text: 'You said: {{#start.q#}}' } },
    { id: 'end', type: 'end', data: { outputs: [{ name: 'a', selector: ['start', 'q'] }] } },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'answer' },
    { id: 'e2', source: 'answer', target: 'end' },
  ],
} as WorkflowGraphInput);
const templateFlow = await published('Bench echo template', {
  nodes: [
    startNode,
    {
      id: 'tpl',
      type: 'template',
      data: { variables: [{ name: 'q', selector: ['start', 'q'] }], template: 'You said: {{ q }}' },
    },
    { id: 'end', type: 'end', data: { outputs: [{ name: 'a', selector: ['tpl', 'output'] }] } },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'tpl' },
    { id: 'e2', source: 'tpl', target: 'end' },
  ],
} as WorkflowGraphInput);

interface RunTiming {
  /** Response headers (the server sends them with the first event). */
  headers: number;
  firstByte: number;
  finished: number;
  result: string;
  /** The server's own figures from the events: the run's elapsed_ms and the LLM node's. */
  engineMs: number;
  llmNodeMs: number;
}

/** One run through the `workflow/run` stream, timed from the request to each milestone. */
async function run(target: { workflow_id: string; version_id: string }): Promise<RunTiming> {
  const started = performance.now();
  const res = await fetch(`${base}/api/athena/v1/workflow/run`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ ...target, inputs: { q: QUESTION } }),
  });
  const headersAt = performance.now() - started;
  if (!String(res.headers.get('content-type')).startsWith('text/event-stream')) {
    throw new Error(`run refused: ${await res.text()}`);
  }
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let firstByte = Number.NaN;
  let finished = Number.NaN;
  let result = 'none';
  let engineMs = Number.NaN;
  let llmNodeMs = Number.NaN;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (Number.isNaN(firstByte)) firstByte = performance.now() - started;
    buffer += decoder.decode(value, { stream: true });
    let cut = buffer.indexOf('\n\n');
    while (cut >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      cut = buffer.indexOf('\n\n');
      const event = /^event: (.+)$/m.exec(block)?.[1];
      const data = /^data: (.+)$/m.exec(block)?.[1];
      if (!event || !data) continue;
      if (event === 'node_finished') {
        const node = JSON.parse(data) as { node_id: string; elapsed_ms: number };
        if (node.node_id === 'llm') llmNodeMs = node.elapsed_ms;
      } else if (event === 'run_finished') {
        finished = performance.now() - started;
        const summary = JSON.parse(data) as { result: string; elapsed_ms: number };
        result = summary.result;
        engineMs = summary.elapsed_ms;
      }
    }
  }
  return { headers: headersAt, firstByte, finished, result, engineMs, llmNodeMs };
}

// The LLM node's own request to the fake, replayed as it was sent: the model's time for exactly it.
await run(llmFlow);
const recorded = fake.requests.findLast((request) => request.path.startsWith('/v1/chat/completions'));
if (!recorded) throw new Error('the LLM node never called the fake model');
const modelRequest = recorded.rawBody;

/** Milliseconds from sending the LLM node's request straight to the fake until its stream ends. */
async function direct(): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${fake.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-fake' },
    body: modelRequest,
  });
  const text = await res.text();
  if (!text.includes('[DONE]')) throw new Error('direct stream did not finish');
  return performance.now() - started;
}

const pct = (values: number[], p: number) => {
  const sorted = values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;
const line = (name: string, values: number[]) =>
  `${name.padEnd(34)} p50 ${ms(pct(values, 0.5)).padStart(9)}  p99 ${ms(pct(values, 0.99)).padStart(9)}  (n ${values.length})`;

const server = serverPid(product.pid!);
const serverRssMb = () => rssMb(server);
/** CPU time the server process has used (all its threads, user + system), in ms. */
const serverCpuMs = () => {
  const stat = readFileSync(`/proc/${server}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of /proc/<pid>/stat, in clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`node ${process.version}, load ${load()}, fake model ${TOKEN_DELAY_MS} ms per streamed chunk`);
const rssStart = serverRssMb();

// Warm-up: the first calls compile code paths and fill the caches on both sides.
for (let i = 0; i < 20; i++) {
  await direct();
  await run(llmFlow);
  await run(answerFlow);
}
await run(templateFlow);

// One at a time, interleaved, as bench/gateway.ts does: the bare added cost of a run.
{
  const directTimes: number[] = [];
  const runs: RunTiming[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    directTimes.push(await direct());
    runs.push(await run(llmFlow));
  }
  const totals = runs.map((r) => r.finished);
  console.log(`\nstart → LLM → end, ${SEQUENTIAL} sequential runs interleaved with direct calls`);
  console.log(line('model alone (direct to the fake)', directTimes));
  console.log(line('workflow run, request → run_finished', totals));
  console.log(
    line(
      '  first byte',
      runs.map((r) => r.firstByte),
    ),
  );
  console.log(
    line(
      '  LLM node elapsed (server)',
      runs.map((r) => r.llmNodeMs),
    ),
  );
  console.log(
    line(
      '  outside the LLM node',
      runs.map((r) => r.finished - r.llmNodeMs),
    ),
  );
  console.log(
    `added by the run                   p50 ${ms(pct(totals, 0.5) - pct(directTimes, 0.5))}  p99 ${ms(pct(totals, 0.99) - pct(directTimes, 0.99))}`,
  );
}

// USERS workflow users and USERS direct users at once for SECONDS: the same machine conditions.
{
  const deadline = performance.now() + SECONDS * 1000;
  const directTimes: number[] = [];
  const runs: RunTiming[] = [];
  const rssBefore = serverRssMb();
  const loadBefore = load();
  const cpuBefore = serverCpuMs();
  await Promise.all([
    ...Array.from({ length: USERS }, async () => {
      while (performance.now() < deadline) runs.push(await run(llmFlow));
    }),
    ...Array.from({ length: USERS }, async () => {
      while (performance.now() < deadline) directTimes.push(await direct());
    }),
  ]);
  const cpuPerRun = (serverCpuMs() - cpuBefore) / runs.length;
  const totals = runs.map((r) => r.finished);
  const failed = runs.filter((r) => r.result !== 'succeeded').length;
  console.log(
    `\nstart → LLM → end, ${USERS} concurrent users for ${SECONDS} s (+ ${USERS} users calling the fake directly); load ${loadBefore} → ${load()}`,
  );
  console.log(
    `runs ${runs.length} (${(runs.length / SECONDS).toFixed(1)}/s), not succeeded ${failed}; server CPU ${cpuPerRun.toFixed(1)} ms per run`,
  );
  console.log(line('model alone (direct to the fake)', directTimes));
  console.log(line('workflow run, request → run_finished', totals));
  console.log(
    line(
      '  first byte',
      runs.map((r) => r.firstByte),
    ),
  );
  console.log(
    line(
      '  LLM node elapsed (server)',
      runs.map((r) => r.llmNodeMs),
    ),
  );
  console.log(
    line(
      '  run elapsed (server)',
      runs.map((r) => r.engineMs),
    ),
  );
  console.log(
    line(
      '  outside the LLM node',
      runs.map((r) => r.finished - r.llmNodeMs),
    ),
  );
  console.log(
    `added by the run                   p50 ${ms(pct(totals, 0.5) - pct(directTimes, 0.5))}  p99 ${ms(pct(totals, 0.99) - pct(directTimes, 0.99))}`,
  );
  console.log(`server RSS ${rssBefore} → ${serverRssMb()} MB`);
}

// CONCURRENT echo runs started at once, ROUNDS times per workflow.
for (const [name, flow] of [
  ['start → answer → end', answerFlow],
  ['start → template → end', templateFlow],
] as const) {
  console.log(`\n${CONCURRENT} concurrent runs of ${name}`);
  for (let round = 1; round <= ROUNDS; round++) {
    const rssBefore = serverRssMb();
    const loadBefore = load();
    const cpuBefore = serverCpuMs();
    const started = performance.now();
    const runs = await Promise.all(Array.from({ length: CONCURRENT }, () => run(flow)));
    const wall = performance.now() - started;
    const cpuPerRun = (serverCpuMs() - cpuBefore) / CONCURRENT;
    const failed = runs.filter((r) => r.result !== 'succeeded').length;
    const firstBytes = runs.map((r) => r.firstByte);
    const finishes = runs.map((r) => r.finished);
    console.log(
      `round ${round} (load ${loadBefore}): first byte p50 ${ms(pct(firstBytes, 0.5))} p99 ${ms(pct(firstBytes, 0.99))}; ` +
        `run_finished p50 ${ms(pct(finishes, 0.5))} p99 ${ms(pct(finishes, 0.99))}; wall ${ms(wall)}; ` +
        `server CPU ${cpuPerRun.toFixed(1)} ms per run; not succeeded ${failed}; RSS ${rssBefore} → ${serverRssMb()} MB`,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

console.log(`\nserver RSS at start ${rssStart} MB, at the end ${serverRssMb()} MB; load ${load()}`);
await stop(product);
await fake.close();
