import { z } from 'zod';
import { text } from './text.ts';

/**
 * How a scene's conversations are answered (docs/chat-replies.md). People can always reply from
 * the console; the mode says what the AI does besides:
 *
 * - `human`: nothing by itself; a person may still ask it to answer one message (AI manual);
 * - `ai_full`: the scene's agent answers customers by itself while nobody has taken the
 *   conversation over, at the hours set, and hands over when unsure or asked for a person;
 * - `ai_assisted`: the agent drafts each answer, a person edits and sends it.
 *
 * Fixed scripts (keyword replies, the welcome on entering a session) apply in every mode.
 */
/** Characters of a reply: WeCom takes 2 048 bytes of text, which 680 Chinese characters always fit. */
export const REPLY_CHARS = 680;

export const REPLY_MODES = ['human', 'ai_full', 'ai_assisted'] as const;
export type ReplyMode = (typeof REPLY_MODES)[number];

const clock = text().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'CHAT_OFFICE_HOURS_INVALID' });

export const officeHoursSchema = z.object({
  start: clock,
  end: clock,
  /** 0 Sunday … 6 Saturday. */
  days: z.array(z.number().int().min(0).max(6)).max(7),
  timezone: text().min(1).max(64),
});
export type OfficeHours = z.infer<typeof officeHoursSchema>;

export const keywordReplySchema = z.object({
  keywords: z
    .array(text().trim().min(1, { error: 'CHAT_KEYWORD_REPLY_INVALID' }).max(50))
    .min(1)
    .max(20),
  reply: text()
    .trim()
    .min(1, { error: 'CHAT_KEYWORD_REPLY_INVALID' })
    .max(REPLY_CHARS, { error: 'CHAT_MESSAGE_TOO_LONG' }),
});

export const replySettingsSchema = z.object({
  mode: z.enum(REPLY_MODES).default('human'),
  /** The agent that answers and drafts; required by the AI modes. */
  agent_id: text().max(64).nullable().default(null),
  /** In `ai_full`: answer at any time, or only outside office hours (people answer inside them). */
  ai_hours: z.enum(['always', 'outside_office']).default('always'),
  office_hours: officeHoursSchema.default({
    start: '09:00',
    end: '18:00',
    days: [1, 2, 3, 4, 5],
    timezone: 'Asia/Shanghai',
  }),
  /** Sent when a customer enters a session (WeCom's welcome code); empty: none. */
  welcome_text: text().trim().max(REPLY_CHARS, { error: 'CHAT_MESSAGE_TOO_LONG' }).default(''),
  keyword_replies: z.array(keywordReplySchema).max(100).default([]),
  /** A customer message containing one of these asks for a person. */
  handover_keywords: z.array(text().trim().min(1).max(50)).max(50).default(['人工', '转人工', '人工客服']),
  /** Sent when the conversation is handed over to a person; empty: none. */
  handover_text: text().trim().max(REPLY_CHARS, { error: 'CHAT_MESSAGE_TOO_LONG' }).default(''),
});
export type ReplySettings = z.infer<typeof replySettingsSchema>;
export const DEFAULT_REPLY_SETTINGS: ReplySettings = replySettingsSchema.parse({});
