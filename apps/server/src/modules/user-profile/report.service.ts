import {
  CHAT_SEND_TYPES,
  type ChatSendType,
  REPORT_LIMITS,
  type ReportDay,
  type ReportFilter,
  type ReportOverview,
  timeWindowOf,
} from '@athena/contract';
import type { AuthContext } from '../../platform/auth-guard.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { profileScope } from './profile-scope.ts';
import type { ReportRepo, ReportWindow } from './report.repo.ts';

const DAY_MS = 86_400_000;

/** The calendar days from `from` to `to` (unix ms) in a time zone, as YYYY-MM-DD, oldest first. */
export function daysBetween(from: number, to: number, timeZone: string): string[] {
  // en-CA writes dates as YYYY-MM-DD.
  const format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const first = Date.parse(`${format.format(from)}T00:00:00Z`);
  const last = Date.parse(`${format.format(Math.max(from, to - 1))}T00:00:00Z`);
  const days: string[] = [];
  for (let day = first; day <= last; day += DAY_MS) days.push(new Date(day).toISOString().slice(0, 10));
  return days;
}

const emptyDay = (day: string): ReportDay => ({
  day,
  sessions: 0,
  new_customers: 0,
  messages: Object.fromEntries(CHAT_SEND_TYPES.map((type) => [type, 0])) as Record<ChatSendType, number>,
  asked: 0,
  replied: 0,
  first_response_seconds: null,
  replied_within: { m1: 0, m5: 0, m30: 0 },
  handed_over: 0,
  ai_resolved: 0,
  activation_sent: 0,
  activation_failed: 0,
  surveys_requested: 0,
  surveys_rated: 0,
  satisfaction_score: null,
});

const isSendType = (value: string): value is ChatSendType => (CHAT_SEND_TYPES as readonly string[]).includes(value);

/**
 * The service reports of a scene (docs/user-profiles.md, Reports), read with `profile.view`. Every
 * chart's figures come from one query each (report.repo.ts), run side by side.
 */
export function createReportService(deps: { reports: ReportRepo; now: () => Date }) {
  const { reports } = deps;

  async function overview(ctx: AuthContext, filter: ReportFilter): Promise<ReportOverview> {
    const scope = profileScope(ctx, 'profile.view');
    const nowMs = deps.now().getTime();
    const window = timeWindowOf(filter.time, nowMs);
    // A custom range includes its last millisecond; a preset ends now.
    const to = filter.time.preset === 'custom' ? (window.to ?? nowMs) + 1 : nowMs;
    if (to - window.from > REPORT_LIMITS.rangeDays * DAY_MS) {
      throw new AppError('PROFILE_REPORT_RANGE_TOO_LONG', { max: REPORT_LIMITS.rangeDays });
    }
    const w: ReportWindow = {
      spaceId: scope.spaceId,
      sceneId: scope.sceneId,
      from: window.from,
      to,
      timeZone: filter.time_zone,
      watermark: await reports.watermark(),
    };
    // Side by side: each query also reads the watermark itself, so each is consistent on its own
    // even when the job commits a batch meanwhile (report.repo.ts).
    const figures = await Promise.all([
      reports.messages(w),
      reports.sessions(w),
      reports.newCustomers(w),
      reports.activation(w),
      reports.satisfaction(w),
    ] as const);
    const [messages, sessions, customers, activation, satisfaction] = figures;

    const days = new Map(daysBetween(w.from, w.to, w.timeZone).map((day) => [day, emptyDay(day)]));
    const dayOf = (day: string) => days.get(day) ?? days.set(day, emptyDay(day)).get(day)!;
    for (const row of messages) if (isSendType(row.sendType)) dayOf(row.day).messages[row.sendType] += row.n;
    for (const row of sessions) {
      const day = dayOf(row.day);
      Object.assign(day, {
        sessions: row.sessions,
        asked: row.asked,
        replied: row.replied,
        handed_over: row.handedOver,
        ai_resolved: row.aiResolved,
        first_response_seconds: row.replied > 0 ? Math.round(row.responseMs / row.replied / 100) / 10 : null,
        replied_within: { m1: row.within1m, m5: row.within5m, m30: row.within30m },
      });
    }
    for (const row of customers) dayOf(row.day).new_customers = row.n;
    for (const row of activation)
      Object.assign(dayOf(row.day), { activation_sent: row.sent, activation_failed: row.failed });
    const distribution = [0, 0, 0, 0, 0];
    const scoreSums = new Map<string, number>();
    for (const row of satisfaction) {
      const day = dayOf(row.day);
      day.surveys_requested += row.n;
      if (row.score === null) continue;
      day.surveys_rated += row.n;
      scoreSums.set(row.day, (scoreSums.get(row.day) ?? 0) + row.score * row.n);
      if (row.score >= 1 && row.score <= 5) distribution[row.score - 1] += row.n;
    }
    for (const [day, sum] of scoreSums) {
      const entry = dayOf(day);
      entry.satisfaction_score = Math.round((sum / entry.surveys_rated) * 100) / 100;
    }
    return {
      from: w.from,
      to: w.to,
      time_zone: w.timeZone,
      days: [...days.values()].sort((a, b) => a.day.localeCompare(b.day)),
      score_distribution: distribution,
      summarised_until: w.watermark > 0 ? w.watermark : null,
    };
  }

  return { overview };
}

export type ReportService = ReturnType<typeof createReportService>;
