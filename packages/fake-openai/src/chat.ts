import { invalidRequest, type OpenAIError } from './errors.ts';

// Chat completions: request validation, the deterministic reply and its wire objects.

interface ChatMessage {
  role: string;
  content?: unknown;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream: boolean;
  includeUsage: boolean;
  maxTokens: number | undefined;
  /** Name of the tool to call when the prompt asks for weather; undefined when tools are absent or disabled. */
  toolName: string | undefined;
  /** `response_format.type`: structured output is answered with `{}` unless a reply is scripted. */
  responseFormat: 'text' | 'json_object' | 'json_schema';
}

export type Reply =
  | { kind: 'text'; pieces: string[]; finishReason: 'stop' | 'length' }
  | { kind: 'tool_call'; callId: string; name: string; argumentPieces: string[] };

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export const TOOL_ARGUMENTS = '{"city":"Shanghai"}';
// The argument string as a model would emit it: a few pieces that only parse once joined.
const TOOL_ARGUMENT_PIECES = ['{"', 'city', '":"', 'Shanghai', '"}'];
const FINGERPRINT = 'fp_fake';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseChatRequest(body: unknown): ChatRequest | OpenAIError {
  if (!isRecord(body)) return invalidRequest('The request body must be a JSON object.');
  if (typeof body.model !== 'string' || body.model === '') {
    return invalidRequest('you must provide a model parameter', 'model');
  }
  const { messages } = body;
  if (!Array.isArray(messages) || messages.length === 0) {
    return invalidRequest("Invalid 'messages': expected a non-empty array.", 'messages');
  }
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message) || typeof message.role !== 'string') {
      return invalidRequest(`Invalid 'messages[${index}]': expected an object with a 'role'.`, `messages[${index}]`);
    }
  }
  const stream = body.stream === true;
  if (body.stream_options != null && !stream) {
    return invalidRequest("The 'stream_options' parameter is only allowed when 'stream' is enabled.", 'stream_options');
  }
  const includeUsage = stream && isRecord(body.stream_options) && body.stream_options.include_usage === true;
  const limit = body.max_completion_tokens ?? body.max_tokens;
  if (limit != null && !(typeof limit === 'number' && Number.isInteger(limit) && limit >= 1)) {
    return invalidRequest("Invalid 'max_tokens': expected an integer of at least 1.", 'max_tokens');
  }
  const responseFormat = parseResponseFormat(body.response_format);
  if (typeof responseFormat !== 'string') return responseFormat;
  return {
    model: body.model,
    messages: messages as ChatMessage[],
    stream,
    includeUsage,
    maxTokens: limit ?? undefined,
    toolName: pickTool(body.tools, body.tool_choice),
    responseFormat,
  };
}

const SCHEMA_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * `response_format` checked as OpenAI checks its shape: a type, and for `json_schema` a name and
 * an object schema. The schema itself is not enforced: scripted replies stand for what a model
 * returns, conforming or not.
 */
function parseResponseFormat(format: unknown): ChatRequest['responseFormat'] | OpenAIError {
  if (format == null) return 'text';
  if (!isRecord(format)) return invalidRequest("Invalid 'response_format': expected an object.", 'response_format');
  if (format.type === 'text' || format.type === 'json_object') return format.type;
  if (format.type !== 'json_schema') {
    return invalidRequest(
      "Invalid 'response_format.type': expected 'text', 'json_object' or 'json_schema'.",
      'response_format.type',
    );
  }
  const spec = format.json_schema;
  if (!isRecord(spec) || typeof spec.name !== 'string' || !SCHEMA_NAME.test(spec.name)) {
    return invalidRequest(
      "Invalid 'response_format.json_schema.name': expected 1 to 64 letters, digits, '_' or '-'.",
      'response_format.json_schema.name',
    );
  }
  if (spec.schema !== undefined && !isRecord(spec.schema)) {
    return invalidRequest(
      "Invalid 'response_format.json_schema.schema': expected an object.",
      'response_format.json_schema.schema',
    );
  }
  if (spec.strict != null && typeof spec.strict !== 'boolean') {
    return invalidRequest(
      "Invalid 'response_format.json_schema.strict': expected a boolean.",
      'response_format.json_schema.strict',
    );
  }
  return 'json_schema';
}

function pickTool(tools: unknown, toolChoice: unknown): string | undefined {
  if (!Array.isArray(tools) || tools.length === 0 || toolChoice === 'none') return undefined;
  if (isRecord(toolChoice) && isRecord(toolChoice.function) && typeof toolChoice.function.name === 'string') {
    return toolChoice.function.name;
  }
  const first: unknown = tools[0];
  if (isRecord(first) && isRecord(first.function) && typeof first.function.name === 'string') {
    return first.function.name;
  }
  return undefined;
}

/** Text of a message's `content`: a string, or the text parts of a content-part array. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: unknown) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('');
}

/** Word-ish tokens that join back to the text: each word carries the whitespace before it. */
export function splitTokens(text: string): string[] {
  const pieces = text.match(/\s*\S+/g) ?? [];
  const trailing = text.match(/\s+$/)?.[0] ?? '';
  if (pieces.length === 0) return trailing ? [trailing] : [];
  if (trailing) pieces[pieces.length - 1] += trailing;
  return pieces;
}

/** Characters (code points) of every message's content / 4, rounded up. */
export function promptTokens(messages: ChatMessage[]): number {
  const chars = messages.reduce((sum, message) => sum + Array.from(textOf(message.content)).length, 0);
  return Math.ceil(chars / 4);
}

export function planReply(request: ChatRequest, callId: string): Reply {
  const last = request.messages[request.messages.length - 1];
  if (last.role === 'tool') return textReply(`Tool said: ${textOf(last.content)}`, request.maxTokens);
  if (request.responseFormat === 'json_object' || request.responseFormat === 'json_schema') {
    return textReply('{}', request.maxTokens);
  }
  const lastUser = request.messages.findLast((message) => message.role === 'user');
  const prompt = textOf(lastUser?.content);
  if (request.toolName && /\bweather\b/i.test(prompt)) {
    return { kind: 'tool_call', callId, name: request.toolName, argumentPieces: TOOL_ARGUMENT_PIECES };
  }
  return textReply(`Echo: ${prompt}${citedMarkers(request.messages)}`, request.maxTokens);
}

/**
 * Grounded prompts (a system message listing sources as lines starting "[1] ", "[2] " …) get an
 * answer that cites every listed source, like a real model following the instruction would.
 */
function citedMarkers(messages: ChatMessage[]): string {
  const system = messages
    .filter((message) => message.role === 'system')
    .map((message) => textOf(message.content))
    .join('\n');
  const markers = [...system.matchAll(/^\[(\d+)\] /gm)].map((match) => `[${match[1]}]`);
  return markers.length > 0 ? ` ${[...new Set(markers)].join('')}` : '';
}

/** A reply with exactly this text (a scripted one), cut at `maxTokens` like any other. */
export function textReply(text: string, maxTokens: number | undefined): Reply {
  const pieces = splitTokens(text);
  if (maxTokens !== undefined && pieces.length > maxTokens) {
    return { kind: 'text', pieces: pieces.slice(0, maxTokens), finishReason: 'length' };
  }
  return { kind: 'text', pieces, finishReason: 'stop' };
}

export function usageOf(request: ChatRequest, reply: Reply): Usage {
  const prompt = promptTokens(request.messages);
  const completion = reply.kind === 'text' ? reply.pieces.length : reply.argumentPieces.length;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

interface Envelope {
  id: string;
  created: number;
  model: string;
}

/** The non-streaming `chat.completion` object. */
export function completionObject(envelope: Envelope, reply: Reply, usage: Usage): object {
  const message =
    reply.kind === 'text'
      ? { role: 'assistant', content: reply.pieces.join(''), refusal: null }
      : {
          role: 'assistant',
          content: null,
          refusal: null,
          tool_calls: [
            { id: reply.callId, type: 'function', function: { name: reply.name, arguments: TOOL_ARGUMENTS } },
          ],
        };
  return {
    ...envelope,
    object: 'chat.completion',
    system_fingerprint: FINGERPRINT,
    choices: [
      { index: 0, message, logprobs: null, finish_reason: reply.kind === 'text' ? reply.finishReason : 'tool_calls' },
    ],
    usage,
  };
}

/** Every `chat.completion.chunk` of a stream in order, without the closing `[DONE]`. */
export function chunkSequence(envelope: Envelope, reply: Reply, usage: Usage, includeUsage: boolean): object[] {
  const chunk = (delta: object, finishReason: string | null = null): object => ({
    ...envelope,
    object: 'chat.completion.chunk',
    system_fingerprint: FINGERPRINT,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    // With include_usage every chunk carries `usage: null` until the final usage-only chunk.
    ...(includeUsage ? { usage: null } : {}),
  });
  const chunks: object[] = [];
  if (reply.kind === 'text') {
    chunks.push(chunk({ role: 'assistant', content: '', refusal: null }));
    for (const piece of reply.pieces) chunks.push(chunk({ content: piece }));
    chunks.push(chunk({}, reply.finishReason));
  } else {
    chunks.push(
      chunk({
        role: 'assistant',
        content: null,
        tool_calls: [{ index: 0, id: reply.callId, type: 'function', function: { name: reply.name, arguments: '' } }],
      }),
    );
    for (const piece of reply.argumentPieces) {
      chunks.push(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
    }
    chunks.push(chunk({}, 'tool_calls'));
  }
  if (includeUsage) {
    chunks.push({ ...envelope, object: 'chat.completion.chunk', system_fingerprint: FINGERPRINT, choices: [], usage });
  }
  return chunks;
}
