// The benchmarks `npm run bench:check` runs (bench/check.ts), each in its quick mode, with the
// figures it reads from their output and the targets of docs/benchmarks.md. A quick run that
// measures something smaller than the benchmark's full run says so (`mode`), and a target that
// does not carry over unchanged is marked scaled.

export interface Figure {
  label: string;
  /** The figure from the benchmark's output; undefined when it is not there. */
  read: (out: string) => number | undefined;
  unit?: string;
  /** Absent: the figure is reported, not judged. */
  target?: { op: '>=' | '<=' | '='; value: number; scaled?: boolean };
  /**
   * A ratio of two things measured in the same run (so the machine's load cancels out): compared
   * with the last recorded figure (bench/recorded.json), and flagged when it fell more than 15 %.
   */
  ratio?: boolean;
}

export interface Bench {
  name: string;
  file: string;
  /** The environment of the quick mode. */
  quick: Record<string, string>;
  /** What the quick mode measures, against the full run (docs/benchmarks.md, "Standing check"). */
  mode: string;
  timeoutS: number;
  /** PostgreSQL 15+ (scripts/ensure-postgres.sh) or Debian's Chromium (scripts/ensure-chromium.sh). */
  needs?: 'postgres' | 'chromium';
  figures: Figure[];
}

/** The first capture of `pattern` (the `index`th group), as a number. */
const first =
  (pattern: RegExp, index = 1) =>
  (out: string) => {
    const match = pattern.exec(out);
    return match ? Number(match[index]) : undefined;
  };

/** The largest first capture among every match of `pattern` (a global regex). */
const largest = (pattern: RegExp) => (out: string) => {
  const values = [...out.matchAll(pattern)].map((match) => Number(match[1]));
  return values.length > 0 ? Math.max(...values) : undefined;
};

/** 1 when `pattern` is in the output, else 0. */
const present = (pattern: RegExp) => (out: string) => (pattern.test(out) ? 1 : 0);

/** A field of the JSON object the benchmark printed (media-many prints one). */
const json = (pick: (value: Record<string, unknown>) => unknown) => (out: string) => {
  const start = out.indexOf('{\n');
  const end = out.indexOf('\n}', start);
  if (start < 0 || end < 0) return undefined;
  const value = pick(JSON.parse(out.slice(start, end + 2)));
  return typeof value === 'number' ? value : undefined;
};

export const BENCHES: Bench[] = [
  {
    name: 'api',
    file: 'api.ts',
    quick: { BENCH_SECONDS: '5' },
    mode: '5 s of load each instead of 20',
    timeoutS: 90,
    figures: [
      {
        label: 'user/info ÷ bare Fastify',
        read: first(/throughput ratio ([\d.]+)/),
        target: { op: '>=', value: 0.6 },
        ratio: true,
      },
      {
        label: 'user/info p99',
        read: first(/athena \/accountv2\/user\/info\s+\d+ req\/s\s+p50 \d+ ms\s+p99 (\d+) ms/),
        unit: ' ms',
        target: { op: '<=', value: 25 },
      },
      { label: 'errors', read: first(/errors (\d+)/), target: { op: '=', value: 0 } },
    ],
  },
  {
    name: 'startup',
    file: 'startup.ts',
    quick: { BENCH_RUNS: '3' },
    mode: '3 starts instead of 5',
    timeoutS: 150,
    figures: [
      {
        label: 'start → first user/info, median',
        read: first(/median ([\d.]+) s;/),
        unit: ' s',
        target: { op: '<=', value: 3 },
      },
      {
        label: 'idle RSS after 5 s',
        read: first(/idle RSS after 5 s: (\d+) MB/),
        unit: ' MB',
        target: { op: '<=', value: 250 },
      },
    ],
  },
  {
    name: 'web-size',
    file: 'web-size.ts',
    quick: {},
    mode: 'the full run',
    timeoutS: 90,
    needs: 'chromium',
    figures: [
      {
        label: '/login JavaScript, gzipped',
        read: first(/(\d+) KB gzipped/),
        unit: ' KB',
        target: { op: '<=', value: 350 },
      },
    ],
  },
  {
    name: 'members',
    file: 'members.ts',
    quick: { BENCH_REQUESTS: '100' },
    mode: '25 requests of each kind instead of 100 (5 000 members as in the full run)',
    timeoutS: 90,
    figures: [
      {
        label: 'member list p95, worst kind',
        read: largest(/p95 ([\d.]+) ms/g),
        unit: ' ms',
        target: { op: '<=', value: 50 },
      },
    ],
  },
  {
    name: 'gateway',
    file: 'gateway.ts',
    quick: { BENCH_SAMPLES: '40', BENCH_CONCURRENT: '100' },
    mode: '40 sequential chats each way instead of 200; 100 concurrent chats instead of 200',
    timeoutS: 120,
    figures: [
      {
        label: 'first token added, p50',
        read: first(/added by Athena\s+p50 ([\d.-]+) ms/),
        unit: ' ms',
        target: { op: '<=', value: 5 },
      },
      {
        label: 'first token added, p99',
        read: first(/added by Athena\s+p50 [\d.-]+ ms\s+p99 ([\d.-]+) ms/),
        unit: ' ms',
        target: { op: '<=', value: 20 },
      },
      { label: 'concurrent chats failed', read: first(/complete, (\d+) failed/), target: { op: '=', value: 0 } },
      {
        label: 'concurrent chats, p50 first token',
        read: first(/concurrent streaming chats:[^\n]*p50 first token (\d+) ms/),
        unit: ' ms',
        target: { op: '<=', value: 50 },
      },
      {
        label: 'concurrent chats, p99 first token',
        read: first(/concurrent streaming chats:[^\n]*p50 first token \d+ ms, p99 (\d+) ms/),
        unit: ' ms',
        target: { op: '<=', value: 200 },
      },
      {
        label: 'as many straight to the model, p50',
        read: first(/straight to the model server: p50 first token (\d+) ms/),
        unit: ' ms',
      },
    ],
  },
  {
    name: 'knowledge-ingest',
    file: 'knowledge-ingest.ts',
    quick: { BENCH_PAGES: '200', BENCH_ROUNDS: '1', BENCH_EMBED_PAGES: '20' },
    mode: 'a 200-page PDF, one round (1 000 pages, three rounds); 20 pages with embeddings',
    timeoutS: 120,
    figures: [
      {
        label: 'indexNow ÷ extraction pages/s',
        read: first(/median: .*ratio ([\d.]+) \(target/),
        target: { op: '>=', value: 0.5 },
        ratio: true,
      },
    ],
  },
  {
    name: 'knowledge-retrieval',
    file: 'knowledge-retrieval.ts',
    quick: { BENCH_SEGMENTS: '5000', BENCH_QUERIES: '50', BENCH_FORCE_HNSW: '1' },
    mode: '5 000 segments and 50 queries (100 000 and 200); the index scan forced (too few rows to be chosen)',
    timeoutS: 150,
    figures: [
      {
        label: 'full text p95',
        read: first(/full text ([\d.]+) ms, hybrid/),
        unit: ' ms',
        target: { op: '<=', value: 50, scaled: true },
      },
      {
        label: 'hybrid p95',
        read: first(/hybrid ([\d.]+) ms; recall/),
        unit: ' ms',
        target: { op: '<=', value: 50, scaled: true },
      },
      // The lexical stand-in is not what the recall target is about (knowledge-vector-recall is).
      { label: 'HNSW recall@10, lexical vectors', read: first(/at ef_search 200: ([\d.]+)/) },
    ],
  },
  {
    name: 'knowledge-vector-recall',
    file: 'knowledge-vector-recall.ts',
    quick: { BENCH_SEGMENTS: '2000', BENCH_QUERIES: '50', BENCH_FORCE_HNSW: '1' },
    mode: '2 000 segments of real model vectors, 50 queries (100 000, 200), index scan forced; vectors embedded once (~80 s), then kept',
    timeoutS: 200,
    figures: [
      {
        label: 'HNSW recall@10 at the product settings',
        read: first(/\| 200 \(the product's[^|]*\| ([\d.]+) \|/),
        target: { op: '>=', value: 0.95, scaled: true },
      },
    ],
  },
  {
    name: 'knowledge-eval',
    file: 'knowledge-eval.ts',
    quick: {},
    mode: 'the full run',
    timeoutS: 90,
    figures: [
      { label: 'full text hit@5, all', read: first(/\| all \| \d+ \| fulltext \| [\d.]+ \| ([\d.]+) \|/), ratio: true },
      { label: 'hybrid hit@5, all', read: first(/\| all \| \d+ \| hybrid \| [\d.]+ \| ([\d.]+) \|/), ratio: true },
    ],
  },
  {
    name: 'hostile-uploads',
    file: 'hostile-uploads.ts',
    quick: {},
    mode: 'the full run',
    timeoutS: 120,
    figures: [
      { label: 'crashes', read: first(/crashes (\d+)/), target: { op: '=', value: 0 } },
      { label: 'bombs accepted', read: first(/bombs accepted (\d+)/), target: { op: '=', value: 0 } },
      {
        label: 'worst probe wait',
        read: first(/worst probe wait during an upload (\d+) ms/),
        unit: ' ms',
        target: { op: '<=', value: 100 },
      },
    ],
  },
  {
    name: 'workflow-engine',
    file: 'workflow-engine.ts',
    quick: { BENCH_RUNS: '3' },
    mode: 'medians of 3 runs instead of 10',
    timeoutS: 60,
    figures: [
      {
        label: 'engine per node, worst graph',
        read: largest(/\| ([\d.]+) µs +\| [\d.]+ µs +\|/g),
        unit: ' µs',
        target: { op: '<=', value: 50 },
      },
    ],
  },
  {
    name: 'code-node',
    file: 'code-node.ts',
    // The full run: 200 warm runs take a few seconds, and a p95 of 30 is the warm-up's slowest runs.
    quick: {},
    mode: 'the full run',
    timeoutS: 90,
    figures: [
      {
        label: 'JavaScript warm p95',
        read: first(/JavaScript warm\s+p50 [\d.]+ ms\s+p95 ([\d.]+) ms/),
        unit: ' ms',
        target: { op: '<=', value: 5 },
      },
      { label: 'Python first run', read: first(/Python first run\s+([\d.]+) ms/), unit: ' ms' },
    ],
  },
  {
    name: 'workflow-canvas',
    file: 'workflow-canvas.ts',
    quick: { BENCH_OPENS: '2', BENCH_PAN_MS: '1000' },
    mode: '2 opens of each graph instead of 5; 1 s pans instead of 2',
    timeoutS: 150,
    needs: 'chromium',
    figures: [
      {
        label: '1 000 nodes, open median',
        read: first(/1000 nodes: OPEN median (\d+) ms/),
        unit: ' ms',
        target: { op: '<=', value: 2000 },
      },
      {
        label: '1 000 nodes, pan p95, worst',
        read: largest(/1000 nodes: PAN [^\n]*p95 ([\d.]+) ms/g),
        unit: ' ms',
        target: { op: '<=', value: 50 },
      },
    ],
  },
  {
    name: 'workflow-runs',
    file: 'workflow-runs.ts',
    quick: { BENCH_SECONDS: '5', BENCH_ROUNDS: '1', BENCH_SEQUENTIAL: '10' },
    mode: '10 sequential runs (50), 20 users for 5 s (20 s), one round of 60 concurrent runs (5)',
    timeoutS: 150,
    figures: [
      {
        label: 'added by a run, 20 users, p50',
        read: first(/concurrent users[\s\S]*?added by the run\s+p50 ([\d.]+) ms/),
        unit: ' ms',
        target: { op: '<=', value: 20 },
      },
      {
        label: 'added by a run, 20 users, p99',
        read: first(/concurrent users[\s\S]*?added by the run\s+p50 [\d.]+ ms\s+p99 ([\d.]+) ms/),
        unit: ' ms',
        target: { op: '<=', value: 100 },
      },
      {
        label: '60 concurrent runs, first byte p50',
        read: first(/round 1 [^\n]*first byte p50 ([\d.]+) ms/),
        unit: ' ms',
        target: { op: '<=', value: 100 },
      },
    ],
  },
  {
    name: 'chat-history',
    file: 'chat-history.ts',
    quick: { BENCH_MESSAGES: '20000', BENCH_REPEAT: '1' },
    mode: '20 000 messages instead of 1 000 000, every filter combination once',
    timeoutS: 150,
    figures: [
      { label: 'ingestion', read: first(/= (\d+) msg\/s/), unit: ' msg/s', target: { op: '>=', value: 5000 } },
      {
        label: 'conversation list p95',
        read: first(/conversation list: [^\n]*p95 ([\d.]+) ms/),
        unit: ' ms',
        target: { op: '<=', value: 100, scaled: true },
      },
      {
        label: 'thread pages p95, worst',
        read: largest(/(?:newest page|scrolling back \d+ pages:) p50 [\d.]+ ms, p95 ([\d.]+) ms/g),
        unit: ' ms',
        target: { op: '<=', value: 100, scaled: true },
      },
    ],
  },
  {
    name: 'billing',
    file: 'billing.ts',
    quick: { BENCH_DEBITS: '200', BENCH_IN_FLIGHT: '50', BENCH_NOTICES: '20' },
    mode: '200 debits from 50 clients (1 000 from 200), 20 duplicate notices (100); embedded database only',
    timeoutS: 90,
    figures: [
      { label: 'every ledger check passed', read: present(/every check passed/), target: { op: '=', value: 1 } },
    ],
  },
  {
    name: 'media',
    file: 'media.ts',
    quick: { BENCH_MEDIA_BYTES: String(256 * 1024 ** 2), BENCH_RANGES: '200' },
    mode: 'a 256 MiB file instead of 5 GB, 200 range seeks instead of 1 000',
    timeoutS: 180,
    figures: [
      {
        label: 'tus ÷ raw loopback write',
        read: first(/\| tus ≥ 80 % [^|]*\| [^|]*= (\d+) %/),
        unit: ' %',
        target: { op: '>=', value: 80 },
        ratio: true,
      },
      {
        label: 'server RSS growth during the upload',
        read: first(/server RSS growth < 100 MB[^|]*\| [^|]*\(\+(\d+) MB\)/),
        unit: ' MB',
        target: { op: '<=', value: 100 },
      },
      {
        label: 'sha256 after kill -9 and resume',
        read: present(/\| after kill -9 [^\n]*\| yes \|/),
        target: { op: '=', value: 1 },
      },
      {
        label: 'range seek p95, worst',
        read: largest(/range seek p95 ≤ 20 ms \([^)]*\): p50 [\d.]+ \/ p95 ([\d.]+)/g),
        unit: ' ms',
        target: { op: '<=', value: 20 },
      },
    ],
  },
  {
    name: 'media-many',
    file: 'media-many.ts',
    quick: { BENCH_FILES: '500' },
    mode: '500 files instead of 10 000',
    timeoutS: 120,
    figures: [
      { label: 'uploads refused', read: json((value) => value.refused), target: { op: '=', value: 0 } },
      {
        label: 'listed twice or missing',
        read: json((value) => Number(value.files) - Number(value.listed) + Number(value.duplicates)),
        target: { op: '=', value: 0 },
      },
      {
        label: 'images without thumbnail',
        read: json((value) => Number(value.images) - Number(value.images_with_thumbnail)),
        target: { op: '=', value: 0 },
      },
      {
        label: 'probe p99 during uploads',
        read: json((value) => (value.probe_ms as { p99: number }).p99),
        unit: ' ms',
        target: { op: '<=', value: 100 },
      },
    ],
  },
  {
    name: 'customer-search',
    file: 'customer-search.ts',
    quick: { BENCH_CUSTOMERS: '10000', BENCH_REPEAT: '3' },
    mode: '10 000 customers on the embedded database (200 000), 3 calls of each filter (10)',
    timeoutS: 120,
    figures: [
      {
        label: 'customer list p95, all filters',
        read: first(/overall: \d+ calls, p50 \d+ ms, p95 (\d+) ms/),
        unit: ' ms',
        target: { op: '<=', value: 100, scaled: true },
      },
    ],
  },
  {
    name: 'service-reports',
    file: 'service-reports.ts',
    quick: { BENCH_CONVERSATIONS: '20000', BENCH_REPEAT: '5' },
    mode: '20 000 conversations (200 000 messages) instead of 1 000 000 (10 M), 5 calls per chart (30); a throw-away PostgreSQL 15',
    timeoutS: 150,
    needs: 'postgres',
    figures: [
      {
        label: 'chart p95, worst chart',
        read: largest(/90 days: p50 \d+ ms, p95 (\d+) ms/g),
        unit: ' ms',
        target: { op: '<=', value: 300, scaled: true },
      },
    ],
  },
  {
    name: 'mcp',
    file: 'mcp.ts',
    quick: { BENCH_CALLS: '40', BENCH_CLIENTS: '10', BENCH_ROUNDS: '5', BENCH_COPIES: '2', BENCH_INSPECTOR: 'off' },
    mode: '40 queries each way (300), 10 clients × 5 calls (50 × 20), 2 copies of the documents (24), no Inspector CLI',
    timeoutS: 120,
    figures: [
      {
        label: 'added latency p50',
        read: first(/added latency \(b − a\): p50 of pairwise differences ([\d.-]+) ms/),
        unit: ' ms',
        target: { op: '<=', value: 5 },
      },
      {
        label: 'concurrent clients, errors',
        read: first(/\| MCP `tools\/call` \(SDK clients\) \| \d+ \| (\d+) \|/),
        target: { op: '=', value: 0 },
      },
    ],
  },
];
