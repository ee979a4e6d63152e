import { z } from 'zod';
import { CHAT_SEND_TYPES, timeRangeSchema } from './chat-history.ts';
import { defineRoute } from './envelope.ts';
import { text } from './text.ts';

/**
 * Service reports of a customer-service scene (docs/user-profiles.md, "Reports"): per day of the
 * reader's time zone, sessions and new customers, messages by send type, first-response time, AI
 * resolution and hand-over rates, activation success and satisfaction. Read with `profile.view`,
 * scoped like every profile call to the caller's space and the scene of the `scene-id` header.
 */

const tag = 'user-profile';

/** Whether the runtime knows this IANA time zone (the server's and the browser's alike). */
function isTimeZone(zone: string) {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const REPORT_LIMITS = {
  /** Days of a custom range: a year and a bit, so a chart stays readable and a query bounded. */
  rangeDays: 400,
  /** Silence that ends a session: the next message after it starts a new one. */
  sessionGapMinutes: 30,
} as const;

/** The path of the CSV export: a JSON body answered with a file (or the error envelope). */
export const REPORT_EXPORT_PATH = '/api/athena/v1/profile/report/export';

export const reportFilterSchema = z.object({
  time: timeRangeSchema.default({ preset: '7d', from: null, to: null }),
  /** The reader's time zone (IANA), so days start at their midnight. */
  time_zone: text().max(64).refine(isTimeZone, { error: 'BAD_REQUEST' }).default('Asia/Shanghai'),
});
export type ReportFilter = z.infer<typeof reportFilterSchema>;

const count = z.number().int();
export const reportDaySchema = z.object({
  /** YYYY-MM-DD in the reader's time zone. */
  day: text(),
  /** Sessions that started this day (a conversation's messages without a silence over 30 minutes). */
  sessions: count,
  /** Customers whose first message arrived this day. */
  new_customers: count,
  /** Messages by send type. */
  messages: z.record(z.enum(CHAT_SEND_TYPES), count),
  /** Sessions with a customer message: the base of the rates below. */
  asked: count,
  /** Of those, sessions answered by anyone but the customer. */
  replied: count,
  /** Mean seconds from a session's first customer message to its first reply; null without replies. */
  first_response_seconds: z.number().nullable(),
  /** Replies within 1, 5 and 30 minutes. */
  replied_within: z.object({ m1: count, m5: count, m30: count }),
  /** Sessions a person took part in (a human message). */
  handed_over: count,
  /** Sessions answered with no person taking part. */
  ai_resolved: count,
  activation_sent: count,
  activation_failed: count,
  surveys_requested: count,
  surveys_rated: count,
  /** Mean score of the ratings (1 to 5); null without any. */
  satisfaction_score: z.number().nullable(),
});
export type ReportDay = z.infer<typeof reportDaySchema>;

export const reportOverviewSchema = z.object({
  /** The window the figures cover (unix ms) and the time zone of its days. */
  from: z.number().int(),
  to: z.number().int(),
  time_zone: text(),
  days: z.array(reportDaySchema),
  /** Ratings by score over the whole window, scores 1 to 5 (index 0 is score 1). */
  score_distribution: z.array(count),
  /** The id of the newest message in the summary tables when read (newer ones are read directly); null before the first run. */
  summarised_until: z.number().int().nullable(),
});
export type ReportOverview = z.infer<typeof reportOverviewSchema>;

export const profileReportRoutes = {
  reportOverview: defineRoute({
    path: '/api/athena/v1/profile/report/overview',
    body: reportFilterSchema,
    data: reportOverviewSchema,
    auth: true,
    summary: "The scene's service figures per day of a time window, for the report charts",
    tag,
  }),
};
