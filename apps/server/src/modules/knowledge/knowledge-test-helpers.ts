import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Envelope, KNOWLEDGE_UPLOAD_PATH, type KnowledgeUnit, type Segment } from '@athena/contract';
import type { FakeOpenAI } from '@athena/fake-openai';
import type { TestApp } from '../../testing/test-app.ts';

export const API = '/api/athena/v1';
export type Headers = Record<string, string>;
export type Call = <T = unknown>(path: string, body: unknown, headers?: Headers) => Promise<Envelope<T>>;

/** POSTs JSON to an API path relative to /api/athena/v1 and returns the envelope. */
export const caller =
  (t: TestApp, defaults: Headers): Call =>
  async (path, body, headers = defaults) =>
    (await t.call(`${API}/${path}`, body, headers)).body as never;

export async function upload(
  t: TestApp,
  headers: Headers,
  knowledgeId: string,
  fileName: string,
  bytes: Buffer,
  batchId?: string,
) {
  const query = new URLSearchParams({ knowledge_id: knowledgeId, file_name: fileName });
  if (batchId) query.set('batch_id', batchId);
  const res = await t.app.inject({
    method: 'POST',
    url: `${KNOWLEDGE_UPLOAD_PATH}?${query}`,
    headers: { ...headers, 'content-type': 'application/octet-stream' },
    payload: bytes,
  });
  return { status: res.statusCode, body: res.json() as Envelope<KnowledgeUnit> };
}

/** An embedding key of the current space at the fake (or a proxy in front of it). */
export async function addEmbeddingKey(call: Call, baseUrl: string, version = 'fake-embed', headers?: Headers) {
  const res = await call<{ id: string }>(
    'model_key/create',
    { model_name: 'Embed', version, base_url: baseUrl, api_key: 'sk-fake', purpose: 'embedding' },
    headers,
  );
  if (res.code !== 0) throw new Error(`model key: ${JSON.stringify(res)}`);
  return res.data.id;
}

export async function waitForUnit(
  call: Call,
  id: string,
  done: (unit: KnowledgeUnit) => boolean,
  timeoutMs = 20_000,
  headers?: Headers,
) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await call<KnowledgeUnit>('knowledge/unit/get', { id }, headers);
    if (res.code === 0 && done(res.data)) return res.data;
    if (Date.now() > until) throw new Error(`unit ${id} never got there: ${JSON.stringify(res.data)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function allSegments(call: Call, knowledgeId: string, unitId?: string, headers?: Headers) {
  const items: Segment[] = [];
  for (let page = 1; ; page++) {
    const res = await call<{ items: Segment[]; total: number }>(
      'knowledge/segment/list',
      { knowledge_id: knowledgeId, unit_id: unitId, page, page_size: 100 },
      headers,
    );
    items.push(...res.data.items);
    if (items.length >= res.data.total || res.data.items.length === 0) return items;
  }
}

/** Paragraphs of distinct text, about `size` characters each, so auto chunking cuts many segments. */
export function paragraphs(count: number, label = 'Section', size = 420) {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const sentence = `${label} ${i} explains topic number ${i} in plain words. `;
    lines.push(sentence.repeat(Math.ceil(size / sentence.length)).trim());
  }
  return Buffer.from(lines.join('\n\n'), 'utf8');
}

/**
 * A test peer in front of the fake OpenAI server that holds every request for `delayMs` before
 * forwarding it: indexing that takes seconds, for cancel and crash tests. (The fake itself only
 * delays streamed chat tokens.)
 */
export async function startSlowProxy(fake: FakeOpenAI, delayMs: number) {
  const target = new URL(fake.url).origin;
  let embedCalls = 0;
  let embedArrivals = 0;
  const server = createServer(async (req, res) => {
    if (req.url?.includes('/embeddings')) embedArrivals += 1;
    // The client hanging up (an aborted call) closes the response before it was written.
    let gone = false;
    res.on('close', () => {
      gone = !res.writableFinished;
    });
    const pieces: Buffer[] = [];
    for await (const piece of req) pieces.push(piece as Buffer);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (gone) return;
    if (req.url?.includes('/embeddings')) embedCalls += 1;
    try {
      const upstream = await fetch(`${target}${req.url}`, {
        method: req.method,
        headers: {
          authorization: String(req.headers.authorization ?? ''),
          'content-type': String(req.headers['content-type'] ?? 'application/json'),
        },
        body: req.method === 'GET' ? undefined : Buffer.concat(pieces),
      });
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
      res.end(Buffer.from(await upstream.arrayBuffer()));
    } catch {
      res.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    /** Embedding calls forwarded so far (the ones a cancelled client dropped are not counted). */
    get embedCalls() {
      return embedCalls;
    },
    /** Embedding calls received so far, counted before the delay: one being held is included. */
    get embedArrivals() {
      return embedArrivals;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls until `ready()` holds (a test's view of something happening elsewhere). */
export async function until(ready: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
