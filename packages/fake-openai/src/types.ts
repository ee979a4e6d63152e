/** How the fake misbehaves. `normal` answers; every other mode simulates one vendor failure. */
export type Mode = 'normal' | 'unauthorized' | 'rate_limited' | 'server_error' | 'stall' | 'malformed' | 'flaky';

export const MODES: readonly Mode[] = [
  'normal',
  'unauthorized',
  'rate_limited',
  'server_error',
  'stall',
  'malformed',
  'flaky',
];

/**
 * Model ids that force a mode for one request, for callers that cannot reach `setMode`
 * (browser tests, a separately started CLI server). Always listed by GET /v1/models.
 */
export const MODE_MODELS: Readonly<Record<string, Mode>> = {
  'fake-401': 'unauthorized',
  'fake-429': 'rate_limited',
  'fake-500': 'server_error',
  'fake-stall': 'stall',
  'fake-malformed': 'malformed',
};

export interface FakeOpenAIOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The only key accepted as `Authorization: Bearer <apiKey>`. Default `sk-fake`. */
  apiKey?: string;
  /** Models that answer normally. Default `['fake-chat', 'fake-embed', 'fake-lexical-embed', 'fake-json-mode']`. */
  models?: string[];
  /** Pause between streamed chunks. Default 5. */
  tokenDelayMs?: number;
}

export interface RecordedRequest {
  method: string;
  /** Path including any query string, e.g. `/v1/chat/completions`. */
  path: string;
  /** Lower-cased header names; an `authorization` header is kept with its value replaced by `[redacted]`. */
  headers: Record<string, string>;
  /** Parsed JSON body; `undefined` when the body is empty or not JSON (see `rawBody`). */
  body: unknown;
  rawBody: string;
  /** Whether the request carried `Bearer <apiKey>`. */
  authorized: boolean;
  /** Date.now() when the body had been read. */
  at: number;
}

export interface FakeOpenAI {
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:40123/v1` — what an OpenAI client calls `baseURL`. */
  url: string;
  port: number;
  apiKey: string;
  /** Every request in arrival order. Clear it with `requests.length = 0`. */
  requests: RecordedRequest[];
  setMode(mode: Mode): void;
  /**
   * The next chat completions that get past validation answer with these texts, in order, instead
   * of the deterministic reply: a model's structured output (valid or not) as a test needs it.
   */
  queueReplies(...texts: string[]): void;
  /** Stops listening and destroys every open connection, stalled streams included. */
  close(): Promise<void>;
}
