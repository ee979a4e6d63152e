// The workflow editor with 1 000 nodes in Chromium, on the product started as the README does
// (`npm start`), against a 50-node graph as the baseline:
// 1. open: a fresh tab navigates to /ai-workflows/<id>; the time from the navigation's start to the
//    first frame in which the canvas shows its nodes, all measured (React Flow keeps a node hidden
//    until it knows its size), BENCH_OPENS times (the first with a cold HTTP cache);
// 2. pan: the canvas dragged with the mouse for about 2 s, frame times taken in the page from
//    requestAnimationFrame deltas; once at the opening zoom, and once after "fit view", where every
//    node is in view and drawn (past FAR_ZOOM as cards without text: canvas.tsx); what the fit itself
//    costs (the last long task after the click, the longest) is printed too.
// Run: npx tsx bench/workflow-canvas.ts   (npm start builds the web app once if apps/web/dist is missing)
// Settings: BENCH_PORT (3352), BENCH_OPENS (5), BENCH_PAN_MS (2000), CHROMIUM_PATH (/usr/bin/chromium),
// BENCH_PROFILE=1 (a CPU profile of each pan: the functions with the most self time), BENCH_CSS (a
// style sheet added to every page, to try a rendering change without rebuilding the web app).
import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { WorkflowGraphInput } from '@athena/contract';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { post, signIn, startProduct, stop, tempDataDir, waitUntil } from './support.ts';

const PORT = Number(process.env.BENCH_PORT ?? 3352);
const OPENS = Number(process.env.BENCH_OPENS ?? 5);
const PAN_MS = Number(process.env.BENCH_PAN_MS ?? 2000);
const PROFILE = process.env.BENCH_PROFILE === '1';
const EXTRA_CSS = process.env.BENCH_CSS ?? '';
const base = `http://127.0.0.1:${PORT}`;

/**
 * start → n−2 steps → end in a snake of rows, answer and template nodes taking turns: a valid
 * chain, so the draft's problems list stays short and the canvas is all that is measured.
 */
export function chainGraph(size: number): WorkflowGraphInput {
  const columns = Math.ceil(Math.sqrt(size * 2));
  const id = (index: number) => (index === 0 ? 'start' : index === size - 1 ? 'end' : `n${index}`);
  const position = (index: number) => {
    const row = Math.floor(index / columns);
    const column = row % 2 === 0 ? index % columns : columns - 1 - (index % columns);
    return { x: column * 320, y: row * 160 };
  };
  const nodes: WorkflowGraphInput['nodes'] = Array.from({ length: size }, (_, index) => {
    const common = { id: id(index), position: position(index), title: `Step ${index}` };
    if (index === 0) return { ...common, type: 'start', data: { inputs: [] } };
    if (index === size - 1) return { ...common, type: 'end', data: { outputs: [] } };
    return index % 2 === 0
      ? { ...common, type: 'answer', data: { text: `line ${index}\n` } }
      : { ...common, type: 'template', data: { variables: [], template: `step {{ ${index} }}` } };
  });
  const edges = nodes.slice(1).map((node, index) => ({
    id: `e${index}`,
    source: nodes[index]!.id,
    source_handle: 'out',
    target: node.id,
  }));
  return { nodes, edges };
}

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
};
const ms = (value: number) => `${value.toFixed(0)} ms`;

/**
 * Installed before the app's scripts: a frame loop that notes when the canvas first shows nodes,
 * every one of them measured, and records frame deltas while `__recording` is set. Plain text, since
 * tsx wraps named functions in a helper that the page does not have.
 */
const PAGE_PROBE = `
  window.__frames = [];
  window.__recording = false;
  window.__counts = [];
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push([entry.startTime, entry.duration]);
  }).observe({ type: 'longtask', buffered: true });
  let last = 0;
  const tick = (now) => {
    if (window.__drawnAt === undefined) {
      const drawn = document.querySelectorAll('.react-flow__node');
      if (drawn.length > 0 && [...drawn].every((node) => node.style.visibility !== 'hidden')) {
        window.__drawnAt = performance.now();
        window.__drawnCount = drawn.length;
      }
    }
    const count = document.querySelectorAll('.react-flow__node').length;
    if (count !== window.__lastCount) {
      window.__lastCount = count;
      window.__counts.push([performance.now(), count]);
    }
    if (window.__recording && last > 0) window.__frames.push(now - last);
    last = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
`;

interface Probe {
  __drawnAt?: number;
  __drawnCount: number;
  __frames: number[];
  __recording: boolean;
  __counts: [number, number][];
  __longTasks: [number, number][];
}

interface Opening {
  /** Navigation start → the workflow's detail answered (resource timing). */
  detail: number;
  /** Navigation start → the first frame with nodes, all measured. */
  drawn: number;
  drawnCount: number;
  /** When the number of nodes in the DOM last changed within 1.5 s after that, and to what. */
  settled: number;
  settledCount: number;
  /** Long tasks (≥ 50 ms) before the nodes were drawn: their sum and the longest. */
  longSum: number;
  longMax: number;
}

async function openEditor(context: BrowserContext, workflowId: string): Promise<{ page: Page; opening: Opening }> {
  const page = await context.newPage();
  await page.goto(`/ai-workflows/${workflowId}`);
  await page.waitForFunction(() => (globalThis as unknown as Probe).__drawnAt !== undefined, null, { timeout: 60_000 });
  await page.waitForTimeout(1500);
  const opening = await page.evaluate(() => {
    const probe = globalThis as unknown as Probe;
    const drawn = probe.__drawnAt ?? Number.NaN;
    const detail = performance.getEntriesByType('resource').find((entry) => entry.name.includes('/workflow/detail')) as
      | { responseEnd: number }
      | undefined;
    const last = probe.__counts.at(-1) ?? [drawn, probe.__drawnCount];
    const before = probe.__longTasks.filter(([start]) => start < drawn).map(([, duration]) => duration);
    return {
      detail: detail?.responseEnd ?? Number.NaN,
      drawn,
      drawnCount: probe.__drawnCount,
      settled: last[0],
      settledCount: last[1],
      longSum: before.reduce((sum, value) => sum + value, 0),
      longMax: Math.max(0, ...before),
    };
  });
  return { page, opening };
}

/**
 * Drags the empty canvas for about PAN_MS in four strokes, from the pane's right edge leftwards:
 * `onward` keeps going (new nodes keep coming into view), `back` alternates direction (the graph
 * stays where it was, for a fitted view). `reach`: the share of the pane's width one stroke covers.
 */
async function pan(page: Page, pattern: 'onward' | 'back', reach = 1) {
  const box = await page.getByTestId('wf-canvas').boundingBox();
  if (!box) throw new Error('no canvas');
  await page.evaluate(() => {
    const probe = globalThis as unknown as Probe;
    probe.__frames = [];
    probe.__recording = true;
  });
  const started = await page.evaluate(() => performance.now());
  const strokes = 4;
  const strokeMs = PAN_MS / strokes;
  // Along the pane's top edge, horizontally: no node is ever there (the chain's first row opens
  // 240 px down, and a fitted graph is centred), so every stroke pans and none drags a node.
  const right = { x: box.x + box.width - 40, y: box.y + 12 };
  const left = { x: right.x - (box.width - 80) * reach, y: right.y };
  for (let stroke = 0; stroke < strokes; stroke++) {
    const [from, to] = pattern === 'back' && stroke % 2 === 1 ? [left, right] : [right, left];
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    const begun = Date.now();
    for (;;) {
      const progress = Math.min(1, (Date.now() - begun) / strokeMs);
      await page.mouse.move(from.x + (to.x - from.x) * progress, from.y + (to.y - from.y) * progress);
      if (progress >= 1) break;
    }
    await page.mouse.up();
  }
  const { frames, longTasks } = await page.evaluate((since) => {
    const probe = globalThis as unknown as Probe;
    probe.__recording = false;
    return { frames: probe.__frames, longTasks: probe.__longTasks.filter(([start]) => start >= since).length };
  }, started);
  const drawn = await page.locator('.react-flow__node').count();
  return { frames, drawn, longTasks };
}

/**
 * Clicks "fit view" and waits until the number of nodes in the DOM has not changed for 150 ms:
 * zoomed out past FAR_ZOOM the canvas draws every node (canvas.tsx), so this is what that costs.
 */
async function fitView(page: Page) {
  const since = await page.evaluate(() => performance.now());
  await page.locator('.react-flow__controls-fitview').click();
  let last = -1;
  let stable = 0;
  const begun = Date.now();
  while (stable < 3 && Date.now() - begun < 10_000) {
    await page.waitForTimeout(50);
    const count = await page.locator('.react-flow__node').count();
    stable = count === last ? stable + 1 : 0;
    last = count;
  }
  return page.evaluate(
    ({ since, drawn }) => {
      const tasks = (globalThis as unknown as Probe).__longTasks.filter(([start]) => start >= since);
      const ended = Math.max(since, ...tasks.map(([start, duration]) => start + duration));
      return { drawn, busyMs: ended - since, longMax: Math.max(0, ...tasks.map(([, duration]) => duration)) };
    },
    { since, drawn: last },
  );
}

/**
 * BENCH_PROFILE=1: a CPU profile of the page (CDP Profiler) around `work`, printed as the functions
 * with the most self time, so a slow figure says where the time went.
 */
async function profiled<T>(page: Page, name: string, work: () => Promise<T>): Promise<T> {
  if (!PROFILE) return work();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await cdp.send('Profiler.start');
  const result = await work();
  const { profile } = await cdp.send('Profiler.stop');
  const self = new Map<string, number>();
  const deltas = profile.timeDeltas ?? [];
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  let total = 0;
  (profile.samples ?? []).forEach((id, index) => {
    const frame = byId.get(id)?.callFrame;
    if (!frame) return;
    const file = frame.url.split('/').at(-1) ?? '';
    const key = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
    const micros = deltas[index] ?? 0;
    total += micros;
    self.set(key, (self.get(key) ?? 0) + micros);
  });
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 12);
  console.log(`  profile of ${name}: ${(total / 1000).toFixed(0)} ms sampled; most self time:`);
  for (const [key, micros] of top) console.log(`    ${(micros / 1000).toFixed(0).padStart(6)} ms  ${key}`);
  await cdp.detach();
  return result;
}

async function measure(context: BrowserContext, label: string, workflowId: string) {
  const opens: Opening[] = [];
  for (let index = 0; index < OPENS; index++) {
    const { page, opening } = await openEditor(context, workflowId);
    opens.push(opening);
    console.log(
      `${label}: open ${index + 1}${index === 0 ? ' (cold cache)' : ''}: detail answered ${ms(opening.detail)}, ` +
        `${opening.drawnCount} nodes drawn ${ms(opening.drawn)}, then ${opening.settledCount} in the DOM at ` +
        `${ms(opening.settled)}; long tasks before drawing ${ms(opening.longSum)} (longest ${ms(opening.longMax)})`,
    );
    if (index < OPENS - 1) {
      await page.close();
      continue;
    }
    const atOpening = await profiled(page, `${label} pan at the opening zoom`, () => pan(page, 'onward'));
    const fit = await fitView(page);
    const fitted = await profiled(page, `${label} pan after fit view`, () => pan(page, 'back'));
    // Strokes of a tenth of the pane: the fitted graph's margin, so hardly a node enters or leaves
    // the view and what remains is the cost of moving every drawn node.
    const nudged = await profiled(page, `${label} small strokes after fit view`, () => pan(page, 'back', 0.1));
    await page.close();
    const drawnTimes = opens.map((open) => open.drawn);
    console.log(
      `${label}: OPEN median ${ms(pct(drawnTimes, 0.5))}, worst ${ms(Math.max(...drawnTimes))} (target ≤ 2000 ms)`,
    );
    console.log(
      `${label}: FIT VIEW: ${fit.drawn} nodes in the DOM, the last long task ended ${ms(fit.busyMs)} after the ` +
        `click (longest ${ms(fit.longMax)})`,
    );
    for (const [name, result] of [
      ['at the opening zoom, onward', atOpening],
      ['after fit view, back and forth', fitted],
      ['after fit view, strokes of a tenth of the pane', nudged],
    ] as const) {
      console.log(
        `${label}: PAN ${name} (${result.drawn} nodes in the DOM at the end): ${result.frames.length} frames, ` +
          `p50 ${pct(result.frames, 0.5).toFixed(1)} ms, p95 ${pct(result.frames, 0.95).toFixed(1)} ms, ` +
          `max ${Math.max(...result.frames).toFixed(1)} ms, ${result.longTasks} long tasks (target p95 ≤ 50 ms)`,
      );
    }
  }
}

const product = startProduct({ port: PORT, dataDir: tempDataDir() });
try {
  await waitUntil(async () => (await fetch(`${base}/api/athena/v1/platform/info`, { method: 'POST' })).ok, 120_000);
  const token = await signIn(base);
  const info = await post<{ space: { id: string } }>(`${base}/accountv2/user/info`, {}, { token });
  const headers = { token, 'space-id': info.space.id };
  const api = <T>(path: string, body: unknown) => post<T>(`${base}/api/athena/v1/${path}`, body, headers);
  const createWith = async (name: string, size: number) => {
    const created = await api<{ id: string; draft_revision: number }>('workflow/create', { name });
    const saved = await api<{ problems: unknown[] }>('workflow/draft/save', {
      id: created.id,
      graph: chainGraph(size),
      base_revision: created.draft_revision,
    });
    if (saved.problems.length > 0) console.log(`${name}: ${saved.problems.length} problems in the draft`);
    return created.id;
  };
  const large = await createWith('Canvas 1000', 1000);
  const small = await createWith('Canvas 50', 50);

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const context = await browser.newContext({ baseURL: base, locale: 'en', viewport: { width: 1366, height: 860 } });
    await context.addInitScript(
      ({ token, spaceId }) => {
        // Runs in the page; the bench compiles without the DOM's types.
        const { localStorage } = globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } };
        localStorage.setItem('athena.token', token);
        localStorage.setItem('athena.spaceId', spaceId);
      },
      { token, spaceId: info.space.id },
    );
    await context.addInitScript({ content: PAGE_PROBE });
    if (EXTRA_CSS) {
      await context.addInitScript({
        content: `document.addEventListener('DOMContentLoaded', () => {
          const style = document.createElement('style');
          style.textContent = ${JSON.stringify(EXTRA_CSS)};
          document.head.append(style);
        });`,
      });
    }
    console.log(
      `Chromium ${browser.version()}, viewport 1366×860, ${os.cpus().length} cores, load ${os
        .loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')}`,
    );
    await measure(context, '50 nodes', small);
    await measure(context, '1000 nodes', large);
  } finally {
    await browser.close();
  }
  console.log(`load after: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
} finally {
  await stop(product);
}
