import {
  type ChatSendType,
  chatHistoryRoutes,
  REPORT_EXPORT_PATH,
  type ReportDay,
  type ReportOverview,
  type RouteDescriptor,
  profileReportRoutes as r,
} from '@athena/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../platform/db/sql.ts';
import { sendIngest } from '../../testing/chat-ingest.ts';
import { buildTeam, type TeamFixture } from '../../testing/fixtures.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** 2026-03-10 00:00 UTC; in Asia/Shanghai (UTC+8) 08:00 of the same day. */
const D = Date.UTC(2026, 2, 10);

interface Message {
  conversation: string;
  customer: string;
  type: ChatSendType;
  at: number;
}

/**
 * The hand-computed data set (docs/user-profiles.md, Reports: a session is a conversation's
 * messages with no silence over 30 minutes):
 *   conversation A (customer a): 10th 15:50Z user, 15:52 AI → session A1 (first response 120 s);
 *     17:00 user, 17:00:30 human → session A2 (30 s, handed over). In Shanghai A1 is on the 10th
 *     (23:50) and A2 on the 11th (01:00).
 *   conversation B (customer b): 11th 02:00 user, 02:00:20 AI, 02:10 user, 02:11 AI → one session (20 s).
 *   conversation C (customer c): 11th 03:00 user, never answered.
 */
const FIRST: Message[] = [
  { conversation: 'A', customer: 'a', type: 'user', at: D + 15 * HOUR + 50 * MINUTE },
  { conversation: 'A', customer: 'a', type: 'ai_full', at: D + 15 * HOUR + 52 * MINUTE },
  { conversation: 'A', customer: 'a', type: 'user', at: D + 17 * HOUR },
  { conversation: 'A', customer: 'a', type: 'human', at: D + 17 * HOUR + 30_000 },
  { conversation: 'B', customer: 'b', type: 'user', at: D + 26 * HOUR },
  { conversation: 'B', customer: 'b', type: 'ai_full', at: D + 26 * HOUR + 20_000 },
  { conversation: 'B', customer: 'b', type: 'user', at: D + 26 * HOUR + 10 * MINUTE },
  { conversation: 'B', customer: 'b', type: 'ai_full', at: D + 26 * HOUR + 11 * MINUTE },
  { conversation: 'C', customer: 'c', type: 'user', at: D + 27 * HOUR },
];

/**
 * Late arrivals: a customer message in A at 16:40Z joins A2 (20 minutes before it), which now
 * starts at 16:40 and was answered after 20 min 30 s; customer b writes in a new conversation on
 * the 10th at 20:00Z, so b becomes a new customer of the 10th (and that session is unanswered).
 */
const LATE: Message[] = [
  { conversation: 'A', customer: 'a', type: 'user', at: D + 16 * HOUR + 40 * MINUTE },
  { conversation: 'B2', customer: 'b', type: 'user', at: D + 20 * HOUR },
];

const UTC_WINDOW = { preset: 'custom', from: D, to: D + 48 * HOUR - 1 };
/** The 10th and 11th in Shanghai. */
const SHANGHAI_WINDOW = { preset: 'custom', from: D - 8 * HOUR, to: D + 40 * HOUR - 1 };

/** The figures a test compares: the day's sums, rates left to the reader. */
function figures(day: ReportDay | undefined) {
  if (!day) return null;
  const { messages, ...rest } = day;
  const sent = Object.fromEntries(Object.entries(messages).filter(([, n]) => n > 0));
  return { ...rest, messages: sent };
}

describe('service reports', () => {
  let t: TestApp;
  let team: TeamFixture;
  const inScene = (token: string, scene = '19'): Record<string, string> => ({ ...team.as(token), 'scene-id': scene });
  const call = async <R extends RouteDescriptor>(route: R, body: unknown, headers: Record<string, string>) =>
    (await t.call(route, body, headers)).body;
  const report = async (time: unknown, timeZone = 'UTC', headers = inScene(team.member)) => {
    const answer = await call(r.reportOverview, { time, time_zone: timeZone }, headers);
    expect(answer.code, answer.msg).toBe(0);
    return answer.data as ReportOverview;
  };
  const day = (overview: ReportOverview, name: string) => figures(overview.days.find((d) => d.day === name));
  const summaryTables = async () => {
    const tables = ['report_message_hours', 'report_sessions', 'report_session_hours', 'report_customers'];
    const out: Record<string, unknown[]> = {};
    for (const table of tables) {
      out[table] = rowsOf(await t.database.db.execute(sql.raw(`select * from ${table} order by 1, 2, 3`)));
    }
    out.report_customer_hours = rowsOf(
      await t.database.db.execute(sql`select * from report_customer_hours where customers <> 0 order by 1, 2, 3`),
    );
    return JSON.parse(JSON.stringify(out));
  };

  async function ingest(messages: Message[], batch: string) {
    const endpoint = (await call(chatHistoryRoutes.ingestRotate, {}, inScene(team.creator))).data as {
      url: string;
      secret: string;
    };
    const raw = JSON.stringify({
      messages: messages.map((m, i) => ({
        msg_id: `${batch}-${i}`,
        conversation: { id: `conv-${m.conversation}`, chat_type: 'private' },
        customer: { id: `cust-${m.customer}`, name: `Customer ${m.customer}` },
        channel: { id: 'robot-1', name: 'robot' },
        send_type: m.type,
        kind: 11041,
        content: m.type === 'user' ? '你好' : 'reply',
        sent_at: m.at,
      })),
    });
    const response = await sendIngest(t, endpoint, raw);
    expect(response.statusCode, response.body).toBe(200);
  }
  const catchUp = () => t.app.modules.userProfile.reportSummary.catchUp();

  beforeAll(async () => {
    t = await createTestApp();
    team = await buildTeam(t, { phonePrefix: '135510086' });
    await ingest(FIRST, 'first');
  });
  afterAll(async () => {
    await t?.close();
  });

  const UTC_10 = {
    day: '2026-03-10',
    sessions: 2,
    new_customers: 1,
    messages: { user: 2, ai_full: 1, human: 1 },
    asked: 2,
    replied: 2,
    first_response_seconds: 75,
    replied_within: { m1: 1, m5: 2, m30: 2 },
    handed_over: 1,
    ai_resolved: 1,
    activation_sent: 0,
    activation_failed: 0,
    surveys_requested: 0,
    surveys_rated: 0,
    satisfaction_score: null,
  };
  const UTC_11 = {
    ...UTC_10,
    day: '2026-03-11',
    sessions: 2,
    new_customers: 2,
    messages: { user: 3, ai_full: 2 },
    asked: 2,
    replied: 1,
    first_response_seconds: 20,
    replied_within: { m1: 1, m5: 1, m30: 1 },
    handed_over: 0,
    ai_resolved: 1,
  };

  it('answers the hand-computed figures from the messages alone, before any summary', async () => {
    const overview = await report(UTC_WINDOW);
    expect(overview.summarised_until).toBeNull();
    expect(overview.days.map((d) => d.day)).toEqual(['2026-03-10', '2026-03-11']);
    expect(day(overview, '2026-03-10')).toEqual(UTC_10);
    expect(day(overview, '2026-03-11')).toEqual(UTC_11);
  });

  it('answers the same from the summary tables, and a second run of the job changes nothing', async () => {
    expect(await catchUp()).toBe(FIRST.length);
    const tables = await summaryTables();
    expect(await catchUp()).toBe(0);
    expect(await summaryTables()).toEqual(tables);
    const overview = await report(UTC_WINDOW);
    expect(overview.summarised_until).not.toBeNull();
    expect(day(overview, '2026-03-10')).toEqual(UTC_10);
    expect(day(overview, '2026-03-11')).toEqual(UTC_11);
  });

  it("counts days in the reader's time zone: Shanghai's midnight moves session A2 to the 11th", async () => {
    const overview = await report(SHANGHAI_WINDOW, 'Asia/Shanghai');
    expect(overview.days.map((d) => d.day)).toEqual(['2026-03-10', '2026-03-11']);
    expect(day(overview, '2026-03-10')).toMatchObject({
      sessions: 1,
      new_customers: 1,
      messages: { user: 1, ai_full: 1 },
      first_response_seconds: 120,
      replied_within: { m1: 0, m5: 1, m30: 1 },
      handed_over: 0,
      ai_resolved: 1,
    });
    expect(day(overview, '2026-03-11')).toMatchObject({
      sessions: 3,
      new_customers: 2,
      messages: { user: 4, ai_full: 2, human: 1 },
      asked: 3,
      replied: 2,
      first_response_seconds: 25,
      handed_over: 1,
      ai_resolved: 1,
    });
  });

  it('reads only whole hours from the summary and the rest from the rows: a window inside one hour', async () => {
    // 15:50 to 16:00Z holds A1's two messages, and A1 itself.
    const overview = await report({ preset: 'custom', from: D + 15 * HOUR + 45 * MINUTE, to: D + 16 * HOUR - 1 });
    expect(day(overview, '2026-03-10')).toMatchObject({ sessions: 1, messages: { user: 1, ai_full: 1 } });
  });

  const AFTER_LATE_10 = {
    ...UTC_10,
    sessions: 3,
    new_customers: 2,
    messages: { user: 4, ai_full: 1, human: 1 },
    asked: 3,
    replied: 2,
    // A1 120 s and A2 now 20 min 30 s: (120 + 1230) / 2.
    first_response_seconds: 675,
    replied_within: { m1: 0, m5: 1, m30: 2 },
  };
  const AFTER_LATE_11 = { ...UTC_11, new_customers: 1 };

  it('folds late messages that join sessions and move a first contact, before and after the job', async () => {
    await ingest(LATE, 'late');
    const fresh = await report(UTC_WINDOW);
    expect(day(fresh, '2026-03-10')).toEqual(AFTER_LATE_10);
    expect(day(fresh, '2026-03-11')).toEqual(AFTER_LATE_11);
    expect(await catchUp()).toBe(LATE.length);
    expect(await catchUp()).toBe(0);
    const summarised = await report(UTC_WINDOW);
    expect(day(summarised, '2026-03-10')).toEqual(AFTER_LATE_10);
    expect(day(summarised, '2026-03-11')).toEqual(AFTER_LATE_11);
  });

  it('reads activation sends by the day they finished and surveys by the day they were asked', async () => {
    const db = t.database.db;
    const spaceId = team.teamId;
    const [conversation] = rowsOf<{ id: string; customer_id: string }>(
      await db.execute(
        sql`select id, customer_id from chat_conversations where source_id = 'conv-B' and scene_id = 19`,
      ),
    );
    const [event] = rowsOf<{ id: string }>(
      await db.execute(sql`
        insert into activation_events (space_id, scene_id, name, template_name, mode, body, audience, status, send_at)
        values (${spaceId}, 19, 'back', 'back', 'template', 'hi', '{}', 'finished', ${new Date(D).toISOString()})
        returning id`),
    );
    const customers = rowsOf<{ id: string }>(await db.execute(sql`select id from chat_customers where scene_id = 19`));
    const states = ['sent', 'sent', 'failed'];
    for (const [i, customer] of customers.entries()) {
      await db.execute(sql`
        insert into activation_sends (event_id, customer_id, space_id, scene_id, state, attempts, scheduled_at, finished_at)
        values (${event.id}, ${customer.id}, ${spaceId}, 19, ${states[i]}, 1, ${new Date(D).toISOString()},
          ${new Date(D + 16 * HOUR).toISOString()})`);
    }
    const survey = (state: string, score: number | null, at: number) =>
      db.execute(sql`
        insert into satisfaction_surveys (space_id, scene_id, conversation_id, customer_id, state, score, requested_at)
        values (${spaceId}, 19, ${conversation.id}, ${conversation.customer_id}, ${state}, ${score}, ${new Date(at).toISOString()})`);
    await survey('rated', 5, D + 27 * HOUR);
    await survey('rated', 2, D + 27 * HOUR);
    await survey('sent', null, D + 27 * HOUR);
    await survey('failed', null, D + 27 * HOUR);
    const overview = await report(UTC_WINDOW);
    expect(day(overview, '2026-03-10')).toMatchObject({ activation_sent: 2, activation_failed: 1 });
    expect(day(overview, '2026-03-11')).toMatchObject({
      surveys_requested: 3,
      surveys_rated: 2,
      satisfaction_score: 3.5,
    });
    expect(overview.score_distribution).toEqual([0, 1, 0, 0, 1]);
  });

  it('exports the days as CSV with a BOM, headers in the reader’s language and formulas defused', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: REPORT_EXPORT_PATH,
      headers: { ...inScene(team.member), language: 'zh-CN', 'content-type': 'application/json' },
      payload: { time: UTC_WINDOW, time_zone: 'UTC' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    const text = response.body;
    expect(text.startsWith('\uFEFF日期,会话数,新客户,客户消息')).toBe(true);
    const lines = text.trim().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[1].startsWith('2026-03-10,3,2,4,1,0,1,0,0,3,2,675,0,33.3%,33.3%,2,1,66.7%')).toBe(true);
    const english = await t.app.inject({
      method: 'POST',
      url: REPORT_EXPORT_PATH,
      headers: { ...inScene(team.member), language: 'en', 'content-type': 'application/json' },
      payload: { time: UTC_WINDOW, time_zone: 'UTC' },
    });
    expect(english.body.startsWith('\uFEFFDay,Sessions,New customers')).toBe(true);
  });

  it('lets every member read; a stranger sees only their own empty scene, and a range is bounded', async () => {
    for (const token of [team.creator, team.admin, team.member]) {
      const overview = await report(UTC_WINDOW, 'UTC', inScene(token));
      expect(day(overview, '2026-03-11')?.sessions).toBe(2);
    }
    // The stranger naming team A's space is refused; in their own team they see nothing of A's.
    const refused = await call(r.reportOverview, { time: UTC_WINDOW }, { ...team.as(team.stranger), 'scene-id': '19' });
    expect(refused.code).toBe(16023);
    const own = await call(
      r.reportOverview,
      { time: UTC_WINDOW },
      { ...team.as(team.stranger, team.strangerTeamId), 'scene-id': '19' },
    );
    expect(own.code).toBe(0);
    expect((own.data as ReportOverview).days.every((d) => d.sessions === 0 && d.messages.user === 0)).toBe(true);
    const csv = await t.app.inject({
      method: 'POST',
      url: REPORT_EXPORT_PATH,
      headers: { ...team.as(team.stranger), 'scene-id': '19', 'content-type': 'application/json' },
      payload: { time: UTC_WINDOW },
    });
    expect(csv.json().code).toBe(16023);
    const tooLong = await call(
      r.reportOverview,
      { time: { preset: 'custom', from: 0, to: 500 * 86_400_000 } },
      inScene(team.member),
    );
    expect(tooLong.code).toBe(40860);
    const badZone = await call(r.reportOverview, { time: UTC_WINDOW, time_zone: 'Mars/Olympus' }, inScene(team.member));
    expect(badZone.code).not.toBe(0);
    const agentScene = await call(r.reportOverview, { time: UTC_WINDOW }, inScene(team.member, '10010'));
    expect(agentScene.code).toBe(40500);
  });
});
