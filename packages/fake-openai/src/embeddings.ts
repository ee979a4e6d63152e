import { createHash } from 'node:crypto';
import { invalidRequest, type OpenAIError } from './errors.ts';
import { isLexicalModel, lexicalEmbed } from './lexical-embedding.ts';

// Embeddings: a vector per input, derived only from the text's SHA-256, so equal texts embed equally.
// A model id containing `lexical` switches to feature hashing (lexical-embedding.ts), where similar
// texts are also close.

export const DEFAULT_DIMENSIONS = 64;
const MAX_DIMENSIONS = 8192;
// `fake-lexical-embed-d256`: clients (like Athena's gateway) that never send `dimensions` still get 256.
const DIMENSIONS_SUFFIX = /-d(\d+)$/i;

/**
 * The dimension a model id asks for by its `-d<N>` suffix (N from 1 to 8192), else the default.
 * A request's own `dimensions` wins over both.
 */
export function modelDimensions(model: string): number {
  const match = DIMENSIONS_SUFFIX.exec(model);
  const dimensions = match ? Number(match[1]) : Number.NaN;
  return Number.isInteger(dimensions) && dimensions >= 1 && dimensions <= MAX_DIMENSIONS
    ? dimensions
    : DEFAULT_DIMENSIONS;
}

export interface EmbeddingRequest {
  model: string;
  inputs: string[];
  dimensions: number;
  encoding: 'float' | 'base64';
}

export function parseEmbeddingRequest(body: unknown): EmbeddingRequest | OpenAIError {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return invalidRequest('The request body must be a JSON object.');
  }
  const { model, input, dimensions, encoding_format: encoding } = body as Record<string, unknown>;
  if (typeof model !== 'string' || model === '') return invalidRequest('you must provide a model parameter', 'model');
  const inputs = normalizeInput(input);
  if (!inputs) {
    return invalidRequest("Invalid 'input': expected a non-empty string, an array of them, or token arrays.", 'input');
  }
  if (
    dimensions != null &&
    !(typeof dimensions === 'number' && Number.isInteger(dimensions) && dimensions >= 1 && dimensions <= MAX_DIMENSIONS)
  ) {
    return invalidRequest(`Invalid 'dimensions': expected an integer from 1 to ${MAX_DIMENSIONS}.`, 'dimensions');
  }
  if (encoding != null && encoding !== 'float' && encoding !== 'base64') {
    return invalidRequest("Invalid 'encoding_format': expected 'float' or 'base64'.", 'encoding_format');
  }
  return { model, inputs, dimensions: dimensions ?? modelDimensions(model), encoding: encoding ?? 'float' };
}

// Token-id inputs (number[] or number[][]) are embedded by their JSON text; the fake has no tokenizer.
function normalizeInput(input: unknown): string[] | undefined {
  if (typeof input === 'string') return input === '' ? undefined : [input];
  if (!Array.isArray(input) || input.length === 0) return undefined;
  if (input.every((item) => typeof item === 'number')) return [JSON.stringify(input)];
  const inputs: string[] = [];
  for (const item of input) {
    if (typeof item === 'string' && item !== '') inputs.push(item);
    else if (Array.isArray(item) && item.length > 0 && item.every((n) => typeof n === 'number')) {
      inputs.push(JSON.stringify(item));
    } else return undefined;
  }
  return inputs;
}

/** A unit-length vector from SHA-256(text, block counter), each 4 bytes mapped into [-1, 1). */
export function embed(text: string, dimensions: number): number[] {
  const values: number[] = [];
  for (let block = 0; values.length < dimensions; block++) {
    const digest = createHash('sha256').update(`${block}\u0000${text}`).digest();
    for (let offset = 0; offset < digest.length && values.length < dimensions; offset += 4) {
      values.push(digest.readUInt32BE(offset) / 2 ** 31 - 1);
    }
  }
  const norm = Math.hypot(...values) || 1;
  return values.map((value) => value / norm);
}

export function embedFor(model: string, text: string, dimensions: number): number[] {
  return isLexicalModel(model) ? lexicalEmbed(text, dimensions) : embed(text, dimensions);
}

/** What the official SDKs expect for `encoding_format: 'base64'`: little-endian float32 bytes. */
function toBase64(vector: number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  for (const [index, value] of vector.entries()) bytes.writeFloatLE(value, index * 4);
  return bytes.toString('base64');
}

export function embeddingResponse(request: EmbeddingRequest): object {
  const tokens = request.inputs.reduce((sum, text) => sum + Math.ceil(Array.from(text).length / 4), 0);
  return {
    object: 'list',
    data: request.inputs.map((text, index) => {
      const vector = embedFor(request.model, text, request.dimensions);
      return { object: 'embedding', index, embedding: request.encoding === 'base64' ? toBase64(vector) : vector };
    }),
    model: request.model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}
