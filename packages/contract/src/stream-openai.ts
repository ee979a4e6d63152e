import { z } from 'zod';
import { text } from './text.ts';

// OpenAI's chat-completions format, as far as /v1/chat/completions uses it. The official clients
// parse these shapes, so they follow OpenAI, not this API's own conventions (no envelope, no
// catalogue codes). Chunks and completions come from the agent's model as they are, with `model`
// set to the agent's public id, so fields beyond those listed here pass through untouched.

export const openAIChatRequest = z.object({
  /** The agent's `public_id`. */
  model: text().min(1),
  messages: z
    .array(z.object({ role: z.enum(['system', 'user', 'assistant']), content: text().max(100_000) }))
    .min(1)
    .max(200),
  stream: z.boolean().optional(),
  temperature: z.number().min(0).max(2).optional(),
  max_tokens: z.number().int().min(1).max(32_000).optional(),
});

const usage = z.object({ prompt_tokens: z.number(), completion_tokens: z.number(), total_tokens: z.number() });

/** One `data:` line of a streamed answer. */
export const openAIChunkSchema = z.object({
  id: text(),
  object: z.literal('chat.completion.chunk'),
  created: z.number(),
  model: text(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      delta: z.object({ role: text().optional(), content: text().nullish() }),
      finish_reason: text().nullable(),
    }),
  ),
  usage: usage.nullish(),
});

/** OpenAI's error shape: the JSON answer before a stream starts, and the last `data:` line of a failed one. */
export const openAIErrorSchema = z.object({
  error: z.object({ message: text(), type: text(), code: text(), param: z.null().optional() }),
});
export type OpenAIError = z.infer<typeof openAIErrorSchema>;

/** The JSON answer when the request did not ask to stream. */
export const openAICompletionSchema = z.object({
  id: text(),
  object: z.literal('chat.completion'),
  created: z.number(),
  model: text(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({ role: z.literal('assistant'), content: text().nullable() }),
      finish_reason: text().nullable(),
    }),
  ),
  usage: usage.optional(),
});
export type OpenAICompletion = z.infer<typeof openAICompletionSchema>;

/** What follows the last chunk of a complete streamed answer: `data: [DONE]`. */
export const OPENAI_STREAM_DONE = '[DONE]';
