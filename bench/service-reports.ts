// Service reports at scale (docs/user-profiles.md, Reports): ten million messages from a million
// customers over 120 days in one scene, on PostgreSQL.
// 1. generates the data with SQL (generate_series), not through HTTP: 1 000 000 customers with one
//    private conversation each and 10 messages per conversation (BENCH_MESSAGES_PER_CONVERSATION),
//    sessions broken by a two-hour pause now and then, replies by AI (most), people or fixed scripts;
//    plus activation sends and satisfaction surveys (BENCH_CONVERSATIONS / 10 each);
// 2. runs the summary job (report-summary.job.ts) until it has caught up: how long;
// 3. adds a minute's worth of fresh messages (BENCH_TAIL, 2 000) the job has not read, as a report
//    between two runs of the job meets them;
// 4. times each chart's query (report.repo.ts, as the service runs them) for 90-day windows ending
//    now, BENCH_REPEAT (30) times each, alternating the time zone (Asia/Shanghai, UTC): p50/p95.
// Run (a throw-away PostgreSQL server, Debian's postgresql-15, as the user postgres):
//      su postgres -c '/usr/lib/postgresql/15/bin/initdb -D /tmp/pgreports -U athena --auth=trust'
//      su postgres -c "/usr/lib/postgresql/15/bin/pg_ctl -D /tmp/pgreports -l /tmp/pgreports/log \
//        -o '-p 5481 -c listen_addresses=127.0.0.1 -c unix_socket_directories=/tmp -c shared_buffers=1GB -c max_wal_size=8GB' start"
//      su postgres -c '/usr/lib/postgresql/15/bin/createdb -h 127.0.0.1 -p 5481 -U athena athena_reports'
//      BENCH_DATABASE_URL=postgres://athena@127.0.0.1:5481/athena_reports npx tsx bench/service-reports.ts
//      … and afterwards: su postgres -c '/usr/lib/postgresql/15/bin/pg_ctl -D /tmp/pgreports stop'
// Settings: BENCH_CONVERSATIONS (1 000 000), BENCH_MESSAGES_PER_CONVERSATION (10), BENCH_TAIL (2000),
// BENCH_REPEAT (30), BENCH_PHASE: all (default) or read (time the queries of an earlier run's data).
import { sql } from 'drizzle-orm';
import { MIGRATIONS_DIR } from '../apps/server/src/config.ts';
import { createReportRepo, type ReportWindow } from '../apps/server/src/modules/user-profile/report.repo.ts';
import { createReportSummary } from '../apps/server/src/modules/user-profile/report-summary.job.ts';
import { openDatabase } from '../apps/server/src/platform/db/database.ts';
import { rowsOf } from '../apps/server/src/platform/db/sql.ts';

const DATABASE_URL = process.env.BENCH_DATABASE_URL;
if (!DATABASE_URL) throw new Error('Set BENCH_DATABASE_URL (see the header of this file).');
const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 1_000_000);
const PER_CONVERSATION = Number(process.env.BENCH_MESSAGES_PER_CONVERSATION ?? 10);
const TAIL = Number(process.env.BENCH_TAIL ?? 2_000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 30);
const PHASE = process.env.BENCH_PHASE ?? 'all';
const SCENE = 5;
const DAY_MS = 86_400_000;

const database = await openDatabase({ databaseUrl: DATABASE_URL, dataDir: '', migrationsFolder: MIGRATIONS_DIR });
await database.migrate();
const { db } = database;
const exec = (query: ReturnType<typeof sql>) => db.execute(query);
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

async function timed(label: string, run: () => Promise<unknown>) {
  const start = performance.now();
  await run();
  console.log(`${label}: ${seconds(start)} s`);
}

async function spaceId(): Promise<string> {
  const [row] = rowsOf<{ id: string }>(await exec(sql`select id from spaces where name = 'bench-reports'`));
  if (row) return row.id;
  const [user] = rowsOf<{ id: string }>(await exec(sql`insert into users (nickname) values ('bench') returning id`));
  const [space] = rowsOf<{ id: string }>(
    await exec(sql`insert into spaces (name, creator_id) values ('bench-reports', ${user.id}) returning id`),
  );
  return space.id;
}

const space = await spaceId();

if (PHASE === 'all') {
  const n = CONVERSATIONS;
  // Conversation i starts at a pseudo-random moment of the last 120 days (a hash of i, so two runs
  // store the same data); message j follows 1 to 5 minutes after the one before, or two hours
  // after it (a new session) for j = 6 in every third conversation.
  await timed(`customers and conversations (${n})`, async () => {
    await exec(sql`
      insert into chat_customers (space_id, scene_id, source_id, name)
      select ${space}::uuid, ${SCENE}, 'c' || i, 'Customer ' || i from generate_series(1, ${n}) i`);
    await exec(sql`
      insert into chat_conversations (space_id, scene_id, source_id, chat_type, customer_id, first_message_at,
        last_message_at, message_count)
      select ${space}::uuid, ${SCENE}, 'conv' || i, 'private', c.id,
        now() - interval '120 days' + (abs(hashint4(i)::bigint) % (120 * 86400)) * interval '1 second',
        now() - interval '120 days' + (abs(hashint4(i)::bigint) % (120 * 86400) + 3 * 3600) * interval '1 second',
        ${PER_CONVERSATION}
      from generate_series(1, ${n}) i join chat_customers c on c.space_id = ${space}::uuid and c.source_id = 'c' || i`);
  });
  // Stored day by day in time order, as a channel delivers them (the summary job reads in id order).
  await timed(`messages (${n * PER_CONVERSATION})`, async () => {
    for (let day = 120; day >= 0; day -= 1) {
      await exec(sql`
        insert into chat_messages (space_id, scene_id, conversation_id, source_msg_id, send_type, display_type,
          source_kind, content, search_vector, sent_at)
        select * from (
          select ${space}::uuid, ${SCENE}::int, v.id, 'm' || v.id || '-' || j,
            case when j % 2 = 0 then 'user'
                 when abs(hashint8(v.id * 31 + j)::bigint) % 10 < 6 then 'ai_full'
                 when abs(hashint8(v.id * 31 + j)::bigint) % 10 < 8 then 'human'
                 when abs(hashint8(v.id * 31 + j)::bigint) % 10 < 9 then 'ai_assisted'
                 else 'fixed' end,
            'text', 'bench', '', ''::tsvector,
            v.first_message_at + (j * 180 + (abs(hashint8(v.id + j)::bigint) % 120)
              + case when j >= 6 and v.id % 3 = 0 then 7200 else 0 end) * interval '1 second' as sent_at
          from chat_conversations v cross join generate_series(0, ${PER_CONVERSATION - 1}) j
          where v.space_id = ${space}::uuid
            and v.first_message_at >= now() - ${day + 1} * interval '1 day'
            and v.first_message_at < now() - ${day} * interval '1 day'
        ) x order by sent_at`);
      if (day % 20 === 0) console.log(`  day ${120 - day} of 120`);
    }
  });
  await timed('activation sends and satisfaction surveys', async () => {
    const [event] = rowsOf<{ id: string }>(
      await exec(sql`
        insert into activation_events (space_id, scene_id, name, template_name, mode, body, audience, status, send_at)
        values (${space}::uuid, ${SCENE}, 'bench', 'bench', 'template', 'hi', '{}', 'finished', now()) returning id`),
    );
    await exec(sql`
      insert into activation_sends (event_id, customer_id, space_id, scene_id, state, attempts, scheduled_at, finished_at)
      select ${event.id}::uuid, c.id, ${space}::uuid, ${SCENE}, case when c.id % 7 = 0 then 'failed' else 'sent' end, 1,
        cv.first_message_at, cv.first_message_at + interval '1 minute'
      from chat_customers c join chat_conversations cv on cv.customer_id = c.id
      where c.space_id = ${space}::uuid and c.id % 10 = 0`);
    await exec(sql`
      insert into satisfaction_surveys (space_id, scene_id, conversation_id, customer_id, state, score, rated_at, requested_at)
      select ${space}::uuid, ${SCENE}, cv.id, cv.customer_id, case when cv.id % 3 = 0 then 'sent' else 'rated' end,
        case when cv.id % 3 = 0 then null else 1 + abs(hashint8(cv.id)::bigint) % 5 end, cv.last_message_at, cv.last_message_at
      from chat_conversations cv where cv.space_id = ${space}::uuid and cv.id % 10 = 1`);
    await exec(sql`analyze`);
  });
  const summary = createReportSummary({ db, batch: 20_000 });
  const start = performance.now();
  const folded = await summary.catchUp();
  console.log(`summary job caught up: ${folded} messages in ${seconds(start)} s`);
  const again = performance.now();
  console.log(`summary job again: ${await summary.catchUp()} messages in ${seconds(again)} s`);
  // Fresh messages in recent conversations, which the job has not read yet.
  await exec(sql`
    insert into chat_messages (space_id, scene_id, conversation_id, source_msg_id, send_type, display_type,
      source_kind, content, search_vector, sent_at)
    select ${space}::uuid, ${SCENE}, v.id, 'tail-' || v.id || '-' || g, case when g % 2 = 0 then 'user' else 'ai_full' end,
      'text', 'bench', '', ''::tsvector, now() - (${TAIL} - g) * interval '20 milliseconds'
    from generate_series(1, ${TAIL}) g
    join lateral (select id from chat_conversations where space_id = ${space}::uuid order by id desc offset g % 200 limit 1) v on true`);
  await exec(sql`analyze`);
}

const repo = createReportRepo(db);
const [counts] = rowsOf<{ messages: string; sessions: string; tail: string }>(
  await exec(sql`
    select (select count(*) from chat_messages) as messages, (select count(*) from report_sessions) as sessions,
      (select count(*) from chat_messages where id > (select message_id from report_watermarks where name = 'messages')) as tail`),
);
console.log(`messages ${counts.messages}, stored sessions ${counts.sessions}, not yet summarised ${counts.tail}`);

const charts = {
  messages: repo.messages,
  sessions: repo.sessions,
  newCustomers: repo.newCustomers,
  activation: repo.activation,
  satisfaction: repo.satisfaction,
};
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const overall: number[] = [];
for (const [name, query] of Object.entries(charts)) {
  const times: number[] = [];
  for (let i = 0; i < REPEAT + 2; i += 1) {
    const now = Date.now();
    const window: ReportWindow = {
      spaceId: space,
      sceneId: SCENE,
      from: now - 90 * DAY_MS,
      to: now,
      timeZone: i % 2 === 0 ? 'Asia/Shanghai' : 'UTC',
      watermark: await repo.watermark(),
    };
    const start = performance.now();
    const rows = await query(window);
    const ms = performance.now() - start;
    if (i >= 2) times.push(ms); // the first two warm the cache
    if (i === 0 && rows.length === 0) throw new Error(`${name}: no rows`);
  }
  times.sort((a, b) => a - b);
  overall.push(...times);
  console.log(
    `${name.padEnd(13)} 90 days: p50 ${percentile(times, 0.5).toFixed(0)} ms, p95 ${percentile(times, 0.95).toFixed(0)} ms, max ${times[times.length - 1].toFixed(0)} ms`,
  );
}
await database.close();
