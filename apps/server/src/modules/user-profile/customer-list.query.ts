import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { escapeLike } from '../../platform/db/like.ts';
import { estimatedRows, rowsOf } from '../../platform/db/sql.ts';
import { keywordQueryOf } from '../chat-history/index.ts';
import type { ProfileScope } from './profile-scope.ts';
import type { CustomerRow } from './profile-value.repo.ts';

/** A search condition on one field, already checked against the field (profile.service.ts). */
export type FieldCondition =
  | { fieldId: string; op: 'eq'; value: string }
  | { fieldId: string; op: 'contains'; value: string }
  | { fieldId: string; op: 'gte' | 'lte'; on: 'number' | 'date'; value: string }
  | { fieldId: string; op: 'empty' | 'not_empty' };

/** The customer's latest rating (satisfaction_surveys): 4–5, 3, 1–2, or none at all. */
export type SatisfactionFilter = 'satisfied' | 'neutral' | 'unsatisfied' | 'unrated';

export interface CustomerFilter {
  keyword: string;
  conditions: FieldCondition[];
  satisfaction?: SatisfactionFilter | null;
  /** Last activity within this window (unix ms); `to` null is open-ended. */
  window: { from: number; to: number | null } | null;
}

const valueWhere = (fieldId: string, test: SQL) =>
  sql`exists (select 1 from profile_values v where v.customer_id = cu.id and v.field_id = ${fieldId}::uuid and ${test})`;

/** The test of one condition on the value row `v`; null for `empty` and `not_empty`. */
function valueTest(condition: FieldCondition): SQL | null {
  switch (condition.op) {
    case 'eq':
      // The index holds the value's start (a long text would not fit an entry); the rest is checked
      // after, only when the value is that long: a second test would make the planner expect
      // far fewer matches than there are (its selectivities multiply), and choose badly.
      return condition.value.length < 100
        ? sql`left(v.value, 100) = ${condition.value}`
        : sql`left(v.value, 100) = left(${condition.value}, 100) and v.value = ${condition.value}`;
    case 'contains':
      return sql`v.value ilike ${`%${escapeLike(condition.value)}%`}`;
    case 'gte':
    case 'lte': {
      const column = condition.on === 'number' ? sql`v.value_number` : sql`v.value_date`;
      const bound = condition.on === 'number' ? sql`${condition.value}::numeric` : sql`${condition.value}::date`;
      return condition.op === 'gte' ? sql`${column} >= ${bound}` : sql`${column} <= ${bound}`;
    }
    default:
      return null;
  }
}

/**
 * The conditions as SQL on the customer `cu`. The tests of one field are one lookup of its value
 * (a customer has one value a field): "from … to …" is then one range of the field's index, not
 * every value from the lower bound on, each checked against the upper one.
 */
function conditionsSql(conditions: FieldCondition[]): SQL[] {
  const tests = new Map<string, SQL[]>();
  const out: SQL[] = [];
  for (const condition of conditions) {
    const test = valueTest(condition);
    if (test) tests.set(condition.fieldId, [...(tests.get(condition.fieldId) ?? []), test]);
    else if (condition.op === 'empty') out.push(sql`not ${valueWhere(condition.fieldId, sql`true`)}`);
    else out.push(valueWhere(condition.fieldId, sql`true`));
  }
  for (const [fieldId, all] of tests) out.push(valueWhere(fieldId, sql.join(all, sql` and `)));
  return out;
}

const SCORES: Record<Exclude<SatisfactionFilter, 'unrated'>, [number, number]> = {
  satisfied: [4, 5],
  neutral: [3, 3],
  unsatisfied: [1, 2],
};

/**
 * The satisfaction filter, per customer: their latest rated survey's score. Rated customers are
 * also looked up through the scene's rated surveys (`candidates`), so a filter few match does not
 * test every customer of the scene.
 */
function satisfactionSql(scope: ProfileScope, filter: SatisfactionFilter): { row: SQL; candidates: SQL | null } {
  const rated = sql`s.customer_id = cu.id and s.state = 'rated' and s.score is not null`;
  if (filter === 'unrated') {
    return { row: sql`not exists (select 1 from satisfaction_surveys s where ${rated})`, candidates: null };
  }
  const [low, high] = SCORES[filter];
  const latest = sql`(select s.score from satisfaction_surveys s where ${rated}
    order by s.rated_at desc nulls last, s.id desc limit 1)`;
  const row = sql`${latest} between ${low} and ${high}`;
  return {
    row,
    candidates: sql`cu.id in (select s.customer_id from satisfaction_surveys s
      where s.space_id = ${scope.spaceId}::uuid and s.scene_id = ${scope.sceneId} and s.state = 'rated'
        and s.score between ${low} and ${high}) and ${row}`,
  };
}

/**
 * The keyword: a word the name or a value begins with (Chinese, Japanese and Korean anywhere, by
 * pairs of characters), as chat history's message search reads it (search-terms.ts); or the
 * channel's customer id exactly. The terms are in generated columns (`profile_search_terms`,
 * migration 0033) with GIN indexes. A keyword of one term is exactly its index lookup; one of
 * several ("anna deliv", "加急配送") is then also looked for in the text itself, so the terms must
 * stand together and in order.
 *
 * Three spellings of the same test: `row` checks one customer (reading in order), `candidates`
 * finds them all through the indexes (counting, finding the few), and `estimate` is `candidates`
 * without the text check, for the planner's estimate (it cannot estimate `like` on a text and
 * would expect almost nothing to match). A keyword with no letter or digit (only `%`) has no terms
 * and is looked for in every name and value.
 */
function keywordSql(scope: ProfileScope, keyword: string): { row: SQL; candidates: SQL; estimate: SQL } {
  // Compared as the terms are made: NFKC and lower case (full-width "ＶＩＰ" holds "vip").
  const folded = `%${escapeLike(keyword.normalize('NFKC').toLowerCase())}%`;
  const holds = (column: SQL) => sql`lower(normalize(${column}, NFKC)) like ${folded}`;
  const terms = keywordQueryOf(keyword);
  if (terms === null) {
    const row = sql`(${holds(sql`cu.name`)} or cu.source_id = ${keyword} or exists (
      select 1 from profile_values v where v.customer_id = cu.id and ${holds(sql`v.value`)}))`;
    return { row, candidates: row, estimate: row };
  }
  const query = sql`${terms}::tsquery`;
  const several = terms.includes(' & ');
  const and = (column: SQL) => (several ? sql` and ${holds(column)}` : sql``);
  const candidatesOf = (check: (column: SQL) => SQL, query: SQL) => sql`cu.id in (
      select n.id from chat_customers n where n.search_vector @@ ${query}${check(sql`n.name`)}
        and n.space_id = ${scope.spaceId}::uuid and n.scene_id = ${scope.sceneId}
      union
      select n.id from chat_customers n where n.space_id = ${scope.spaceId}::uuid and n.scene_id = ${scope.sceneId}
        and n.source_id = ${keyword}
      union
      select v.customer_id from profile_values v join profile_fields f on f.id = v.field_id
      where v.search_vector @@ ${query}${check(sql`v.value`)}
        and f.space_id = ${scope.spaceId}::uuid and f.scene_id = ${scope.sceneId})`;
  return {
    // The values' part as a scalar subquery, not `exists`: the planner would otherwise read every
    // value holding the keyword into a hash first (95 000 for a city), before the first row.
    row: sql`((cu.search_vector @@ ${query}${and(sql`cu.name`)}) or cu.source_id = ${keyword} or coalesce((
      select true from profile_values v where v.customer_id = cu.id and v.search_vector @@ ${query}${and(sql`v.value`)}
      limit 1), false))`,
    // Each part is answered by its own index; the scene's fields, since a value's field is its customer's scene's.
    candidates: candidatesOf(and, query),
    // One term: the planner multiplies the terms' shares as if independent, and the pairs of one
    // Chinese word ("加急", "急配", "配送") always come together.
    estimate: candidatesOf(() => sql``, sql`${terms.split(' & ')[0]}::tsquery`),
  };
}

type Listed = Omit<CustomerRow, 'conversation_count' | 'message_count'>;

/**
 * At most this many customers matching the keyword, values and rating: they are found first
 * (through their indexes) and sorted. More: the customers are read most recently active first,
 * checking each one.
 */
export const FEW_CUSTOMERS = 5_000;

/**
 * Totals are counted exactly up to this many; beyond it the answer is the planner's estimate,
 * marked as such (a million customers would be read to count them all, on every page).
 */
export const EXACT_TOTAL = 5_000;

export interface CustomerPage {
  rows: CustomerRow[];
  total: number;
  /** The total is the planner's estimate: more than EXACT_TOTAL match. */
  totalEstimated: boolean;
}

/**
 * A page of the scene's customers, most recently active first (`chat_customers.last_active_at`,
 * the newest last message of their conversations, kept by a trigger), never active last, ties and
 * the never active by the newest customer first; with the total that match.
 *
 * - No filter on the customer, or one that many match: read `chat_customers_active_idx` in that
 *   order (a time window is a range of it), checking each customer's filters on the way. A page
 *   costs about as many index entries as it has rows, divided by the share of customers that match.
 * - A filter few match (`FEW_CUSTOMERS`: the planner's estimate first, then counted up to that
 *   bound): find those customers through the keyword, value and rating indexes, and sort them.
 *   When the planner expects more, nothing is counted (counting through the keyword index reads
 *   every match before a bound could stop it) and the total is its estimate.
 *
 * docs/user-profiles.md has the measurements (and docs/benchmarks.md at a million customers).
 */
export async function listCustomers(
  db: Db,
  scope: ProfileScope,
  filter: CustomerFilter,
  page: { offset: number; limit: number },
  /** Lowered by a test, to have both ways list the same customers. */
  fewCustomers = FEW_CUSTOMERS,
  /** Lowered by a test, to see an estimated total. */
  exactTotal = EXACT_TOTAL,
): Promise<CustomerPage> {
  const inScene = [sql`cu.space_id = ${scope.spaceId}::uuid`, sql`cu.scene_id = ${scope.sceneId}`];
  if (filter.window) {
    inScene.push(sql`cu.last_active_at >= ${new Date(filter.window.from).toISOString()}::timestamptz`);
    if (filter.window.to !== null) {
      inScene.push(sql`cu.last_active_at <= ${new Date(filter.window.to).toISOString()}::timestamptz`);
    }
  }
  // The same filter three ways: per customer (reading in order), through the indexes (finding), and
  // for the planner's estimate (keywordSql says why).
  const rowWhere = [...inScene];
  const indexWhere = [...inScene];
  const estimateWhere = [...inScene];
  if (filter.keyword) {
    const keyword = keywordSql(scope, filter.keyword);
    rowWhere.push(keyword.row);
    indexWhere.push(keyword.candidates);
    estimateWhere.push(keyword.estimate);
  }
  for (const where of [rowWhere, indexWhere, estimateWhere]) where.push(...conditionsSql(filter.conditions));
  if (filter.satisfaction) {
    const satisfaction = satisfactionSql(scope, filter.satisfaction);
    rowWhere.push(satisfaction.row);
    indexWhere.push(satisfaction.candidates ?? satisfaction.row);
    estimateWhere.push(satisfaction.candidates ?? satisfaction.row);
  }
  const inOrder = sql`from chat_customers cu where ${sql.join(rowWhere, sql` and `)}`;
  const matching = sql`from chat_customers cu where ${sql.join(indexWhere, sql` and `)}`;
  const pageOf = async (from: SQL) =>
    withCounts(
      db,
      rowsOf<Listed>(
        await db.execute(sql`
          select cu.id, cu.name, cu.avatar_url, cu.source_id, cu.created_at, cu.last_active_at ${from}
          order by cu.last_active_at desc nulls last, cu.id desc nulls last
          limit ${page.limit} offset ${page.offset}`),
      ),
    );
  /** The page and its total; a page that ends the list knows the total exactly, estimated or not. */
  const answer = (rows: CustomerRow[], total: { total: number; totalEstimated: boolean }): CustomerPage =>
    rows.length < page.limit && (rows.length > 0 || page.offset === 0)
      ? { rows, total: page.offset + rows.length, totalEstimated: false }
      : { rows, ...total };
  const bound = Math.max(fewCustomers, exactTotal);
  /** Counts up to `bound`; more is "more" (then reading the rest is not worth it). */
  const countUpTo = async (from: SQL) => {
    const n = Number(
      rowsOf<{ n: string | number }>(
        await db.execute(sql`select count(*) as n from (select 1 ${from} limit ${bound + 1}) counted`),
      )[0]?.n ?? 0,
    );
    return { n: Math.min(n, bound), more: n > bound };
  };
  const estimated = (estimate: number) => ({ total: Math.max(Math.round(estimate), bound + 1), totalEstimated: true });

  if (filter.keyword === '' && filter.conditions.length === 0 && !filter.satisfaction) {
    // Counting up to the bound reads that many entries of the index: a few milliseconds.
    const counted = await countUpTo(inOrder);
    const total = counted.more
      ? estimated(await estimatedRows(db, sql`select 1 ${inOrder}`))
      : { total: counted.n, totalEstimated: false };
    return answer(await pageOf(inOrder), total);
  }
  // The planner's estimate decides first: counting many matches would cost more than the page.
  const estimate = await estimatedRows(
    db,
    sql`select 1 from chat_customers cu where ${sql.join(estimateWhere, sql` and `)}`,
  );
  if (estimate > bound) return answer(await pageOf(inOrder), estimated(estimate));
  // The matching customers with their order, read once: counted, and sorted here when few.
  const found = rowsOf<{ id: number | string; at: number | string | null }>(
    await db.execute(
      sql`select cu.id, (extract(epoch from cu.last_active_at) * 1000000)::bigint as at ${matching} limit ${bound + 1}`,
    ),
  );
  if (found.length > bound) return answer(await pageOf(inOrder), estimated(estimate));
  if (found.length > fewCustomers) return answer(await pageOf(inOrder), { total: found.length, totalEstimated: false });
  // In microseconds, as the database orders them (a Date keeps milliseconds only).
  const at = (row: (typeof found)[number]) => (row.at === null ? -1n : BigInt(row.at));
  const ids = found
    .sort((a, b) => (at(a) === at(b) ? Number(b.id) - Number(a.id) : at(b) > at(a) ? 1 : -1))
    .slice(page.offset, page.offset + page.limit)
    .map((row) => Number(row.id));
  const byId = new Map(
    ids.length === 0
      ? []
      : rowsOf<Listed>(
          await db.execute(sql`
            select cu.id, cu.name, cu.avatar_url, cu.source_id, cu.created_at, cu.last_active_at
            from chat_customers cu where cu.id in (${sql.join(
              ids.map((id) => sql`${id}::bigint`),
              sql`, `,
            )})`),
        ).map((row) => [Number(row.id), row]),
  );
  const rows = ids.flatMap((id) => byId.get(id) ?? []);
  return answer(await withCounts(db, rows), { total: found.length, totalEstimated: false });
}

/** Each listed customer's conversations and messages, counted through `chat_conversations_customer_idx`. */
async function withCounts(db: Db, rows: Listed[]): Promise<CustomerRow[]> {
  if (rows.length === 0) return [];
  const ids = sql.join(
    rows.map((row) => sql`${Number(row.id)}::bigint`),
    sql`, `,
  );
  const counts = rowsOf<{ customer_id: number | string; conversations: number | string; messages: number | string }>(
    await db.execute(sql`
      select customer_id, count(*) as conversations, coalesce(sum(message_count), 0) as messages
      from chat_conversations where customer_id in (${ids}) group by customer_id`),
  );
  const byId = new Map(counts.map((count) => [Number(count.customer_id), count]));
  return rows.map((row) => ({
    ...row,
    conversation_count: Number(byId.get(Number(row.id))?.conversations ?? 0),
    message_count: Number(byId.get(Number(row.id))?.messages ?? 0),
  }));
}
