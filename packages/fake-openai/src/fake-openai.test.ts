import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAI, MODE_MODELS, startFakeOpenAI } from './index.ts';

interface ToolCallDelta {
  index: number;
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
}
interface Chunk {
  id: string;
  object: string;
  model: string;
  choices: {
    index: number;
    delta: { role?: string; content?: string | null; tool_calls?: ToolCallDelta[] };
    finish_reason: string | null;
  }[];
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
}
interface Completion {
  object: string;
  model: string;
  choices: {
    message: {
      role: string;
      content: string | null;
      tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
    };
    finish_reason: string;
  }[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}
interface ErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

const weatherTool = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};

function post(fake: FakeOpenAI, path: string, body: unknown, key = fake.apiKey): Promise<Response> {
  return fetch(`${fake.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** The payload of every `data:` line of a finished SSE body, in order. */
function dataLines(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice('data: '.length));
}

/** Parses a well-formed stream: every line but the closing `[DONE]` must be JSON. */
async function readStream(res: Response): Promise<Chunk[]> {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const lines = dataLines(await res.text());
  expect(lines.at(-1)).toBe('[DONE]');
  return lines.slice(0, -1).map((line) => JSON.parse(line) as Chunk);
}

const contentOf = (chunks: Chunk[]) => chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');

describe('fake OpenAI server', () => {
  let fake: FakeOpenAI;
  beforeAll(async () => {
    fake = await startFakeOpenAI({ tokenDelayMs: 1 });
  });
  afterEach(() => fake.setMode('normal'));
  afterAll(() => fake.close());

  it('serves its url under /v1 on loopback with the default key', () => {
    expect(fake.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(fake.apiKey).toBe('sk-fake');
  });

  it('lists the default models and the mode-switch models', async () => {
    const res = await fetch(`${fake.url}/models`, { headers: { authorization: 'Bearer sk-fake' } });
    expect(res.status).toBe(200);
    const list = (await res.json()) as { object: string; data: { id: string; object: string; owned_by: string }[] };
    expect(list.object).toBe('list');
    expect(list.data.map((model) => model.id)).toEqual([
      'fake-chat',
      'fake-embed',
      'fake-lexical-embed',
      'fake-json-mode',
      ...Object.keys(MODE_MODELS),
    ]);
    expect(list.data[0]).toMatchObject({ object: 'model', owned_by: 'fake', created: expect.any(Number) });
  });

  describe('auth and request errors', () => {
    it('answers 401 with OpenAI error JSON for a missing or wrong key', async () => {
      for (const headers of [{}, { authorization: 'Bearer sk-wrong-key' }] as Record<string, string>[]) {
        const res = await fetch(`${fake.url}/chat/completions`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'fake-chat', messages: [{ role: 'user', content: 'hi' }] }),
        });
        expect(res.status).toBe(401);
        const body = (await res.json()) as ErrorBody;
        expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_api_key' });
        expect(body.error.message).not.toContain('sk-wrong-key');
      }
    });

    it('answers 404 model_not_found for an unknown model', async () => {
      const res = await post(fake, '/chat/completions', {
        model: 'gpt-9',
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(res.status).toBe(404);
      expect(((await res.json()) as ErrorBody).error).toMatchObject({
        type: 'invalid_request_error',
        code: 'model_not_found',
      });
    });

    it('answers 400 for unparsable JSON and for missing messages, 404 for unknown routes', async () => {
      const bad = await fetch(`${fake.url}/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk-fake', 'content-type': 'application/json' },
        body: '{oops',
      });
      expect(bad.status).toBe(400);
      const empty = await post(fake, '/chat/completions', { model: 'fake-chat', messages: [] });
      expect(empty.status).toBe(400);
      expect(((await empty.json()) as ErrorBody).error.param).toBe('messages');
      const unknown = await post(fake, '/completions', { model: 'fake-chat' });
      expect(unknown.status).toBe(404);
    });
  });

  describe('chat completions', () => {
    const messages = [
      { role: 'system', content: 'You are terse.' }, // 14 characters
      { role: 'user', content: 'hello there world' }, // 17 characters
    ];

    it('echoes the last user message as a whole chat.completion with usage', async () => {
      const res = await post(fake, '/chat/completions', { model: 'fake-chat', messages });
      expect(res.status).toBe(200);
      const completion = (await res.json()) as Completion;
      expect(completion.object).toBe('chat.completion');
      expect(completion.model).toBe('fake-chat');
      expect(completion.choices[0].message).toMatchObject({ role: 'assistant', content: 'Echo: hello there world' });
      expect(completion.choices[0].finish_reason).toBe('stop');
      // ceil(31 / 4) = 8; pieces: "Echo:", " hello", " there", " world".
      expect(completion.usage).toEqual({ prompt_tokens: 8, completion_tokens: 4, total_tokens: 12 });
    });

    it('streams one chat.completion.chunk per word, ending with data: [DONE]', async () => {
      const res = await post(fake, '/chat/completions', { model: 'fake-chat', messages, stream: true });
      const chunks = await readStream(res);
      expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk' && chunk.id === chunks[0].id)).toBe(true);
      expect(chunks[0].choices[0].delta).toMatchObject({ role: 'assistant', content: '' });
      expect(chunks.slice(1, -1).map((chunk) => chunk.choices[0].delta.content)).toEqual([
        'Echo:',
        ' hello',
        ' there',
        ' world',
      ]);
      expect(chunks.at(-1)?.choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
      expect(chunks.every((chunk) => !('usage' in chunk))).toBe(true);
    });

    it('sends usage in a final choice-less chunk when stream_options.include_usage is true', async () => {
      const res = await post(fake, '/chat/completions', {
        model: 'fake-chat',
        messages,
        stream: true,
        stream_options: { include_usage: true },
      });
      const chunks = await readStream(res);
      const last = chunks.at(-1)!;
      expect(last.choices).toEqual([]);
      expect(last.usage).toEqual({ prompt_tokens: 8, completion_tokens: 4, total_tokens: 12 });
      expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
      expect(contentOf(chunks)).toBe('Echo: hello there world');
    });

    it('reads text out of content-part arrays', async () => {
      const res = await post(fake, '/chat/completions', {
        model: 'fake-chat',
        messages: [{ role: 'user', content: [{ type: 'text', text: '你好' }] }],
      });
      expect(((await res.json()) as Completion).choices[0].message.content).toBe('Echo: 你好');
    });

    it('stops after one token for max_tokens: 1', async () => {
      const whole = (await (
        await post(fake, '/chat/completions', { model: 'fake-chat', messages, max_tokens: 1 })
      ).json()) as Completion;
      expect(whole.choices[0]).toMatchObject({ message: { content: 'Echo:' }, finish_reason: 'length' });
      expect(whole.usage.completion_tokens).toBe(1);

      const chunks = await readStream(
        await post(fake, '/chat/completions', { model: 'fake-chat', messages, max_tokens: 1, stream: true }),
      );
      expect(contentOf(chunks)).toBe('Echo:');
      expect(chunks.at(-1)?.choices[0].finish_reason).toBe('length');
    });

    it('calls the first tool when asked about the weather (non-stream)', async () => {
      const res = await post(fake, '/chat/completions', {
        model: 'fake-chat',
        messages: [{ role: 'user', content: 'What is the weather like?' }],
        tools: [weatherTool, { type: 'function', function: { name: 'other' } }],
      });
      const completion = (await res.json()) as Completion;
      expect(completion.choices[0].finish_reason).toBe('tool_calls');
      const message = completion.choices[0].message;
      expect(message.content).toBeNull();
      expect(message.tool_calls).toHaveLength(1);
      expect(message.tool_calls?.[0]).toMatchObject({ type: 'function', function: { name: 'get_weather' } });
      expect(message.tool_calls?.[0].id).toMatch(/^call_/);
      expect(JSON.parse(message.tool_calls?.[0].function.arguments ?? '')).toEqual({ city: 'Shanghai' });
    });

    it('streams a tool call as index/id/name then argument pieces', async () => {
      const res = await post(fake, '/chat/completions', {
        model: 'fake-chat',
        messages: [{ role: 'user', content: 'weather in Shanghai?' }],
        tools: [weatherTool],
        stream: true,
        stream_options: { include_usage: true },
      });
      const chunks = await readStream(res);
      const deltas = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
      expect(deltas[0]).toMatchObject({ index: 0, type: 'function', function: { name: 'get_weather', arguments: '' } });
      expect(deltas[0].id).toMatch(/^call_/);
      expect(deltas.slice(1).every((delta) => delta.index === 0 && delta.id === undefined)).toBe(true);
      expect(deltas.length).toBeGreaterThan(2);
      const args = deltas.map((delta) => delta.function?.arguments ?? '').join('');
      expect(JSON.parse(args)).toEqual({ city: 'Shanghai' });
      expect(chunks.at(-2)?.choices[0].finish_reason).toBe('tool_calls');
      expect(chunks.at(-1)?.usage?.completion_tokens).toBe(deltas.length - 1);
    });

    it('does not call tools without the word weather, nor with tool_choice none', async () => {
      for (const [content, toolChoice] of [
        ['tell me a joke', undefined],
        ['weather?', 'none'],
      ]) {
        const res = await post(fake, '/chat/completions', {
          model: 'fake-chat',
          messages: [{ role: 'user', content }],
          tools: [weatherTool],
          tool_choice: toolChoice,
        });
        const completion = (await res.json()) as Completion;
        expect(completion.choices[0].message.content).toBe(`Echo: ${content}`);
      }
    });

    it('answers a tool result with "Tool said: <content>"', async () => {
      const res = await post(fake, '/chat/completions', {
        model: 'fake-chat',
        stream: true,
        tools: [weatherTool],
        messages: [
          { role: 'user', content: 'weather?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 'call_1', content: 'sunny, 25C' },
        ],
      });
      expect(contentOf(await readStream(res))).toBe('Tool said: sunny, 25C');
    });
  });

  describe('embeddings', () => {
    interface Embeddings {
      object: string;
      model: string;
      data: { object: string; index: number; embedding: number[] }[];
      usage: { prompt_tokens: number; total_tokens: number };
    }
    const embed = async (body: object) => {
      const res = await post(fake, '/embeddings', { model: 'fake-embed', ...body });
      expect(res.status).toBe(200);
      return (await res.json()) as Embeddings;
    };
    const norm = (vector: number[]) => Math.hypot(...vector);
    const dot = (a: number[], b: number[]) => a.reduce((sum, value, index) => sum + value * b[index], 0);

    it('returns deterministic unit vectors of 64 dimensions by default', async () => {
      const first = await embed({ input: 'the quick brown fox' });
      const again = await embed({ input: 'the quick brown fox' });
      const other = await embed({ input: 'the quick brown fix' });
      expect(first.object).toBe('list');
      expect(first.model).toBe('fake-embed');
      expect(first.data[0]).toMatchObject({ object: 'embedding', index: 0 });
      expect(first.data[0].embedding).toHaveLength(64);
      expect(norm(first.data[0].embedding)).toBeCloseTo(1, 10);
      expect(again.data[0].embedding).toEqual(first.data[0].embedding);
      expect(other.data[0].embedding).not.toEqual(first.data[0].embedding);
      expect(first.usage).toEqual({ prompt_tokens: 5, total_tokens: 5 }); // ceil(19 / 4)
    });

    it('embeds each element of an array input, honouring dimensions', async () => {
      const result = await embed({ input: ['alpha', 'beta', 'alpha'], dimensions: 300 });
      expect(result.data.map((item) => item.index)).toEqual([0, 1, 2]);
      expect(result.data.every((item) => item.embedding.length === 300)).toBe(true);
      expect(norm(result.data[1].embedding)).toBeCloseTo(1, 10);
      expect(result.data[2].embedding).toEqual(result.data[0].embedding);
      expect(result.data[1].embedding).not.toEqual(result.data[0].embedding);
    });

    it('encodes float32 little-endian base64 when asked, as the official SDKs request', async () => {
      const floats = await embed({ input: 'alpha', dimensions: 8 });
      const res = await post(fake, '/embeddings', {
        model: 'fake-embed',
        input: 'alpha',
        dimensions: 8,
        encoding_format: 'base64',
      });
      const encoded = ((await res.json()) as { data: { embedding: string }[] }).data[0].embedding;
      const bytes = Buffer.from(encoded, 'base64');
      const decoded = Array.from({ length: 8 }, (_, index) => bytes.readFloatLE(index * 4));
      decoded.forEach((value, index) => {
        expect(value).toBeCloseTo(floats.data[0].embedding[index], 6);
      });
    });

    it('switches to lexical embeddings for a model id containing "lexical"', async () => {
      const input = ['知识库的检索方法', '知识库检索', '今天天气很好'];
      const lexical = await embed({ model: 'fake-lexical-embed', input, dimensions: 256 });
      const plain = await embed({ input, dimensions: 256 });
      expect(lexical.model).toBe('fake-lexical-embed');
      const [query, near, far] = lexical.data.map((item) => item.embedding);
      expect(query).toHaveLength(256);
      expect(norm(query)).toBeCloseTo(1, 10);
      expect(dot(query, near)).toBeGreaterThan(dot(query, far) + 0.3);
      expect(plain.data[0].embedding).not.toEqual(query);
    });

    it('refuses an empty input and an unknown model', async () => {
      expect((await post(fake, '/embeddings', { model: 'fake-embed', input: '' })).status).toBe(400);
      const unknown = await post(fake, '/embeddings', { model: 'text-embedding-3-small', input: 'x' });
      expect(unknown.status).toBe(404);
      expect(((await unknown.json()) as ErrorBody).error.code).toBe('model_not_found');
    });
  });

  describe('failure modes', () => {
    const chatBody = (model = 'fake-chat', stream = false) => ({
      model,
      stream,
      messages: [{ role: 'user', content: 'one two three' }],
    });

    it('unauthorized: 401 even with the right key, on every endpoint', async () => {
      fake.setMode('unauthorized');
      const chat = await post(fake, '/chat/completions', chatBody());
      expect(chat.status).toBe(401);
      expect(((await chat.json()) as ErrorBody).error.code).toBe('invalid_api_key');
      const models = await fetch(`${fake.url}/models`, { headers: { authorization: 'Bearer sk-fake' } });
      expect(models.status).toBe(401);
    });

    it('rate_limited: 429 with retry-after: 0 and OpenAI error JSON', async () => {
      fake.setMode('rate_limited');
      const res = await post(fake, '/chat/completions', chatBody());
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('0');
      expect(((await res.json()) as ErrorBody).error).toMatchObject({ code: 'rate_limit_exceeded' });
      expect((await post(fake, '/embeddings', { model: 'fake-embed', input: 'x' })).status).toBe(429);
    });

    it('server_error: 500 with OpenAI error JSON', async () => {
      fake.setMode('server_error');
      const res = await post(fake, '/chat/completions', chatBody('fake-chat', true));
      expect(res.status).toBe(500);
      expect(((await res.json()) as ErrorBody).error.type).toBe('server_error');
    });

    it('flaky: the first request after setMode fails with 500, the next ones succeed', async () => {
      fake.setMode('flaky');
      expect((await post(fake, '/chat/completions', chatBody())).status).toBe(500);
      expect((await post(fake, '/chat/completions', chatBody())).status).toBe(200);
      expect((await post(fake, '/chat/completions', chatBody())).status).toBe(200);
      fake.setMode('flaky');
      expect((await post(fake, '/embeddings', { model: 'fake-embed', input: 'x' })).status).toBe(500);
    });

    it('malformed: one valid chunk, one non-JSON data line, then the rest of a normal stream', async () => {
      fake.setMode('malformed');
      const res = await post(fake, '/chat/completions', chatBody('fake-chat', true));
      const lines = dataLines(await res.text());
      expect(lines[1]).toBe('{not json');
      expect(lines.at(-1)).toBe('[DONE]');
      const others = [lines[0], ...lines.slice(2, -1)];
      const chunks = others.map((line) => JSON.parse(line) as Chunk);
      expect(contentOf(chunks)).toBe('Echo: one two three');
      expect(chunks.at(-1)?.choices[0].finish_reason).toBe('stop');
    });

    it('malformed: a non-stream answer is 200 with a body that is not JSON', async () => {
      fake.setMode('malformed');
      const res = await post(fake, '/chat/completions', chatBody());
      expect(res.status).toBe(200);
      await expect(res.json()).rejects.toThrow();
    });

    it('model-name switches force a mode for one request', async () => {
      const expectations: [string, number][] = [
        ['fake-401', 401],
        ['fake-429', 429],
        ['fake-500', 500],
      ];
      for (const [model, status] of expectations) {
        expect((await post(fake, '/chat/completions', chatBody(model))).status, model).toBe(status);
      }
      expect((await post(fake, '/embeddings', { model: 'fake-429', input: 'x' })).status).toBe(429);
      const malformed = dataLines(
        await (await post(fake, '/chat/completions', chatBody('fake-malformed', true))).text(),
      );
      expect(malformed[1]).toBe('{not json');
      expect(malformed.at(-1)).toBe('[DONE]');
      // A switch model never leaks into the next request.
      expect((await post(fake, '/chat/completions', chatBody())).status).toBe(200);
    });
  });

  it('records every request with the authorization value redacted', async () => {
    fake.requests.length = 0;
    await post(fake, '/chat/completions', { model: 'fake-chat', messages: [{ role: 'user', content: 'log me' }] });
    await post(fake, '/chat/completions', { model: 'fake-chat', messages: [] }, 'sk-nope');
    expect(fake.requests).toHaveLength(2);
    const [first, second] = fake.requests;
    expect(first).toMatchObject({ method: 'POST', path: '/v1/chat/completions', authorized: true });
    expect(first.body).toEqual({ model: 'fake-chat', messages: [{ role: 'user', content: 'log me' }] });
    expect(first.headers.authorization).toBe('[redacted]');
    expect(first.headers['content-type']).toBe('application/json');
    expect(JSON.stringify(fake.requests)).not.toContain('sk-fake');
    expect(JSON.stringify(fake.requests)).not.toContain('sk-nope');
    expect(second.authorized).toBe(false);
  });
});

describe('stall mode and close()', () => {
  const body = (model: string, stream: boolean) => ({
    model,
    stream,
    messages: [{ role: 'user', content: 'never finishes' }],
  });

  it('sends the first chunk of a stream, then nothing, and close() ends the stream', async () => {
    const fake = await startFakeOpenAI({ tokenDelayMs: 1 });
    fake.setMode('stall');
    const res = await post(fake, '/chat/completions', body('fake-chat', true));
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(dataLines(first)).toHaveLength(1);
    expect((JSON.parse(dataLines(first)[0]) as Chunk).object).toBe('chat.completion.chunk');

    const next = reader.read().then(
      (result) => (result.done ? 'ended' : 'more data'),
      () => 'ended',
    );
    const quiet = await Promise.race([next, new Promise((resolve) => setTimeout(() => resolve('silent'), 150))]);
    expect(quiet).toBe('silent');

    await fake.close();
    expect(await next).toBe('ended');
  });

  it('never answers a stalled non-stream request, and close() fails it instead of hanging', async () => {
    const fake = await startFakeOpenAI();
    const pending = post(fake, '/chat/completions', body('fake-stall', false)).then(
      () => 'answered',
      () => 'failed',
    );
    const early = await Promise.race([pending, new Promise((resolve) => setTimeout(() => resolve('waiting'), 150))]);
    expect(early).toBe('waiting');
    await fake.close();
    expect(await pending).toBe('failed');
  });

  it('stalls by model name (fake-stall) for streams too', async () => {
    const fake = await startFakeOpenAI();
    const res = await post(fake, '/chat/completions', body('fake-stall', true));
    const reader = res.body!.getReader();
    expect(dataLines(new TextDecoder().decode((await reader.read()).value))).toHaveLength(1);
    const next = reader.read().then(
      (result) => (result.done ? 'ended' : 'more data'),
      () => 'ended',
    );
    const quiet = await Promise.race([next, new Promise((resolve) => setTimeout(() => resolve('silent'), 150))]);
    expect(quiet).toBe('silent');
    await fake.close();
    expect(await next).toBe('ended');
  });

  it('paces stream chunks by tokenDelayMs', async () => {
    const fake = await startFakeOpenAI({ tokenDelayMs: 40 });
    const started = Date.now();
    const res = await post(fake, '/chat/completions', body('fake-chat', true));
    await res.text(); // role + 3 words + finish = 5 chunks, so 4 pauses
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    await fake.close();
  });
});

describe('fake OpenAI: structured output and scripted replies', () => {
  let fake: FakeOpenAI;
  beforeAll(async () => {
    fake = await startFakeOpenAI({ tokenDelayMs: 0 });
  });
  afterAll(() => fake.close());

  const ask = (extra: Record<string, unknown>) =>
    post(fake, '/chat/completions', {
      model: 'fake-chat',
      messages: [{ role: 'user', content: 'hello' }],
      ...extra,
    });
  const jsonSchema = (spec: Record<string, unknown>) => ({
    response_format: { type: 'json_schema', json_schema: spec },
  });

  it('has a model with JSON mode only, which refuses a JSON schema as such vendors do', async () => {
    const ask = (response_format: unknown) =>
      fetch(`${fake.url}/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk-fake', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'fake-json-mode', messages: [{ role: 'user', content: 'hi' }], response_format }),
      });
    const refused = await ask({ type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object' } } });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { param: string } }).error.param).toBe('response_format.type');
    expect((await ask({ type: 'json_object' })).status).toBe(200);
  });

  it('answers structured output with an empty object, and checks the response_format shape', async () => {
    const ok = await ask(jsonSchema({ name: 'profile', schema: { type: 'object' }, strict: true }));
    expect(((await ok.json()) as Completion).choices[0].message.content).toBe('{}');
    const jsonMode = await ask({ response_format: { type: 'json_object' } });
    expect(((await jsonMode.json()) as Completion).choices[0].message.content).toBe('{}');
    for (const wrong of [
      { response_format: 'json' },
      { response_format: { type: 'xml' } },
      jsonSchema({ name: 'a b', schema: {} }),
      jsonSchema({ name: 'ok', schema: [] }),
      jsonSchema({ name: 'ok', strict: 'yes' }),
    ]) {
      const res = await ask(wrong);
      expect(res.status).toBe(400);
      expect(((await res.json()) as ErrorBody).error.type).toBe('invalid_request_error');
    }
  });

  it('answers the queued replies in order, then the usual echo', async () => {
    fake.queueReplies('{"city":"Shanghai"}', 'not json');
    const first = (await (await ask(jsonSchema({ name: 'p' }))).json()) as Completion;
    expect(first.choices[0].message.content).toBe('{"city":"Shanghai"}');
    const streamed = await readStream(await ask({ stream: true }));
    expect(streamed.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('not json');
    const echo = (await (await ask({})).json()) as Completion;
    expect(echo.choices[0].message.content).toBe('Echo: hello');
  });
});
