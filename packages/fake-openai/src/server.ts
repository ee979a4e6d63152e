import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chunkSequence, completionObject, parseChatRequest, planReply, textReply, usageOf } from './chat.ts';
import { embeddingResponse, parseEmbeddingRequest } from './embeddings.ts';
import {
  invalidApiKey,
  invalidRequest,
  modelNotFound,
  type OpenAIError,
  rateLimited,
  serverError,
  unknownRoute,
  unparsableBody,
} from './errors.ts';
import { type FakeOpenAI, type FakeOpenAIOptions, MODE_MODELS, type Mode, type RecordedRequest } from './types.ts';

export const DEFAULT_API_KEY = 'sk-fake';
// `fake-lexical-embed` selects the lexical embedding (any listed id containing `lexical` does).
export const DEFAULT_MODELS: readonly string[] = ['fake-chat', 'fake-embed', 'fake-lexical-embed', 'fake-json-mode'];
/** A chat model that, like several OpenAI-compatible vendors, has JSON mode but refuses a JSON schema. */
export const JSON_MODE_ONLY_MODEL = 'fake-json-mode';
// Fixed so GET /v1/models is byte-for-byte stable across runs.
const MODEL_CREATED = 1_700_000_000;
// What a client receives in `malformed` mode where a whole JSON document was expected.
const MALFORMED = '{not json';

type Route =
  | { kind: 'models' }
  | { kind: 'model'; id: string }
  | { kind: 'chat' }
  | { kind: 'embeddings' }
  | { kind: 'preflight' };

interface Incoming {
  route: Route | undefined;
  body: unknown;
  bodyInvalid: boolean;
  authorized: boolean;
  bearer: string | undefined;
}

/**
 * Starts a deterministic OpenAI-compatible server for tests. It is a test peer only: nothing in
 * the product may fall back to it.
 */
export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const apiKey = options.apiKey ?? DEFAULT_API_KEY;
  const models = [...new Set([...(options.models ?? DEFAULT_MODELS), ...Object.keys(MODE_MODELS)])];
  const tokenDelayMs = options.tokenDelayMs ?? 5;
  const host = options.host ?? '127.0.0.1';
  const requests: RecordedRequest[] = [];
  const scripted: string[] = [];
  let mode: Mode = 'normal';
  let flakyFailed = false;
  let sequence = 0;
  let closed = false;
  let closing: Promise<void> | undefined;

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, serverError());
      else res.destroy(error instanceof Error ? error : undefined);
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const incoming = await receive(req);
    const { route, body } = incoming;
    setCors(res);
    if (route === undefined) return sendError(res, unknownRoute(req.method ?? 'GET', pathOf(req)));
    if (route.kind === 'preflight') {
      res.writeHead(204).end();
      return;
    }
    const effective = effectiveMode(route, body);
    if (effective === 'unauthorized' || !incoming.authorized) return sendError(res, invalidApiKey(incoming.bearer));
    if (effective === 'rate_limited') return sendError(res, rateLimited());
    if (effective === 'server_error') return sendError(res, serverError());
    if (effective === 'flaky' && !flakyFailed) {
      flakyFailed = true;
      return sendError(res, serverError());
    }
    if (incoming.bodyInvalid) return sendError(res, unparsableBody());

    if (route.kind === 'chat') return chat(res, body, effective);
    // Every other endpoint answers with one JSON document, so stall and malformed act on it whole.
    let answer: OpenAIError | { status: 200; body: object };
    if (route.kind === 'models') answer = { status: 200, body: { object: 'list', data: models.map(modelObject) } };
    else if (route.kind === 'model') {
      answer = models.includes(route.id) ? { status: 200, body: modelObject(route.id) } : modelNotFound(route.id);
    } else {
      const parsed = parseEmbeddingRequest(body);
      if (isError(parsed)) answer = parsed;
      else if (!models.includes(parsed.model)) answer = modelNotFound(parsed.model);
      else answer = { status: 200, body: embeddingResponse(parsed) };
    }
    if (answer.status === 200) return sendWhole(res, answer.body, effective);
    sendError(res, answer as OpenAIError);
  }

  async function receive(req: IncomingMessage): Promise<Incoming> {
    const pieces: Buffer[] = [];
    for await (const piece of req) pieces.push(piece as Buffer);
    const rawBody = Buffer.concat(pieces).toString('utf8');
    let body: unknown;
    let bodyInvalid = false;
    if (rawBody.trim() !== '') {
      try {
        body = JSON.parse(rawBody);
      } catch {
        bodyInvalid = true;
      }
    }
    const authorization = req.headers.authorization;
    const bearer = authorization?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined) continue;
      headers[name] = name === 'authorization' ? '[redacted]' : Array.isArray(value) ? value.join(', ') : value;
    }
    const authorized = bearer === apiKey;
    requests.push({
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers,
      body,
      rawBody,
      authorized,
      at: Date.now(),
    });
    return { route: routeOf(req.method ?? 'GET', pathOf(req)), body, bodyInvalid, authorized, bearer };
  }

  function effectiveMode(route: Route, body: unknown): Mode {
    if (mode !== 'normal') return mode;
    const model =
      route.kind === 'model'
        ? route.id
        : typeof body === 'object' && body !== null && 'model' in body && typeof body.model === 'string'
          ? body.model
          : undefined;
    return (model !== undefined && MODE_MODELS[model]) || 'normal';
  }

  async function chat(res: ServerResponse, body: unknown, effective: Mode): Promise<void> {
    const request = parseChatRequest(body);
    if (isError(request)) return sendError(res, request);
    if (!models.includes(request.model)) return sendError(res, modelNotFound(request.model));
    // Like DeepSeek and most Qwen models: JSON mode only, a schema is refused.
    if (request.model === JSON_MODE_ONLY_MODEL && request.responseFormat === 'json_schema') {
      return sendError(
        res,
        invalidRequest("This model does not support 'response_format.type' json_schema.", 'response_format.type'),
      );
    }
    sequence += 1;
    const envelope = { id: `chatcmpl-fake-${sequence}`, created: Math.floor(Date.now() / 1000), model: request.model };
    const next = scripted.shift();
    const reply = next === undefined ? planReply(request, `call_fake_${sequence}`) : textReply(next, request.maxTokens);
    const usage = usageOf(request, reply);
    if (!request.stream) return sendWhole(res, completionObject(envelope, reply, usage), effective);

    let gone = false;
    res.on('close', () => {
      gone = true;
    });
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-request-id': envelope.id,
    });
    const send = (data: string) => res.write(`data: ${data}\n\n`);
    const chunks = chunkSequence(envelope, reply, usage, request.includeUsage);
    for (const [index, chunk] of chunks.entries()) {
      if (index > 0) {
        await sleep(tokenDelayMs);
        if (gone || closed) return;
      }
      send(JSON.stringify(chunk));
      // Held open until the client gives up or close() destroys the socket.
      if (index === 0 && effective === 'stall') return;
      if (index === 0 && effective === 'malformed') send(MALFORMED);
    }
    send('[DONE]');
    res.end();
  }

  function sendWhole(res: ServerResponse, body: object, effective: Mode): void {
    if (effective === 'stall') return;
    const text = effective === 'malformed' ? MALFORMED : JSON.stringify(body);
    res.writeHead(200, { 'content-type': 'application/json' }).end(text);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${urlHost(host)}:${port}/v1`,
    port,
    apiKey,
    requests,
    queueReplies(...texts: string[]) {
      scripted.push(...texts);
    },
    setMode(next: Mode) {
      mode = next;
      flakyFailed = false;
    },
    close() {
      // Idempotent, so an afterEach and an afterAll may both close the same fake.
      closing ??= new Promise<void>((resolve, reject) => {
        closed = true;
        server.close((error) => (error ? reject(error) : resolve()));
        // Stalled requests and streams would otherwise keep close() waiting forever.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

function routeOf(method: string, path: string): Route | undefined {
  if (method === 'OPTIONS' && path.startsWith('/v1/')) return { kind: 'preflight' };
  if (method === 'GET' && path === '/v1/models') return { kind: 'models' };
  const model = path.match(/^\/v1\/models\/(.+)$/);
  if (method === 'GET' && model) return { kind: 'model', id: decodeURIComponent(model[1]) };
  if (method === 'POST' && path === '/v1/chat/completions') return { kind: 'chat' };
  if (method === 'POST' && path === '/v1/embeddings') return { kind: 'embeddings' };
  return undefined;
}

function pathOf(req: IncomingMessage): string {
  return new URL(req.url ?? '/', 'http://fake.invalid').pathname;
}

function modelObject(id: string): object {
  return { id, object: 'model', created: MODEL_CREATED, owned_by: 'fake' };
}

function isError(value: object): value is OpenAIError {
  return 'status' in value && 'body' in value;
}

function sendError(res: ServerResponse, error: OpenAIError): void {
  res.writeHead(error.status, { 'content-type': 'application/json', ...error.headers }).end(JSON.stringify(error.body));
}

// Browser tests may call the fake directly from another origin.
function setCors(res: ServerResponse): void {
  res.setHeader('access-control-allow-origin', '*');
  res.setHeader('access-control-allow-methods', 'GET, POST, OPTIONS');
  res.setHeader('access-control-allow-headers', 'authorization, content-type');
  res.setHeader('access-control-expose-headers', 'retry-after, retry-after-ms, x-request-id');
}

function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
