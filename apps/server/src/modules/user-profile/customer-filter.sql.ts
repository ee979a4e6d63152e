import { createHash } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { escapeLike } from '../../platform/db/like.ts';
import { rowsOf } from '../../platform/db/sql.ts';
import { keywordQueryOf } from '../chat-history/index.ts';
import type { ProfileScope } from './profile-scope.ts';

// The customer list's filter as SQL on the customer `cu` (docs/user-profiles.md, "Reading at
// scale"): field conditions, ranges, the search document, satisfaction. The list and the audience
// of activation events (customer-list.query.ts) read customers through these same conditions.

export type Executor = Pick<Db, 'execute'>;

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
  /** Last activity within this window (unix ms); a null end is open. */
  window: { from: number | null; to: number | null } | null;
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
 * A field's values matching its tests, read once into a hash when they are at most this many
 * (migration 0035's `(field_id, value_number | value_date, customer_id)` indexes answer it without
 * the table): 30 000 order dates in a month cost a few milliseconds, where looking up each customer
 * read in order costs one read of the values' table per customer. More are looked up per customer:
 * then one in ten customers or more match, and a page needs few of them.
 */
export const HASHED_VALUES = 100_000;

/** The typed tests (number and date ranges) of each field. */
function rangeTestsOf(conditions: FieldCondition[]): Map<string, SQL[]> {
  const tests = new Map<string, SQL[]>();
  for (const condition of conditions) {
    if (condition.op !== 'gte' && condition.op !== 'lte') continue;
    const test = valueTest(condition);
    if (test) tests.set(condition.fieldId, [...(tests.get(condition.fieldId) ?? []), test]);
  }
  return tests;
}

/**
 * Each ranged field's matching values (one a customer), counted up to `bound + 1` through the
 * field's index alone. The planner would expect a sixth of them: it multiplies "this field" by
 * "this range over every field's values".
 */
async function rangeCounts(db: Executor, conditions: FieldCondition[], bound: number): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const [fieldId, tests] of rangeTestsOf(conditions)) {
    const [row] = rowsOf<{ n: string | number }>(
      await db.execute(sql`select count(*) as n from (select 1 from profile_values v
        where v.field_id = ${fieldId}::uuid and ${sql.join(tests, sql` and `)} limit ${bound + 1}) counted`),
    );
    counts.set(fieldId, Number(row?.n ?? 0));
  }
  return counts;
}

/**
 * The conditions as SQL on the customer `cu`. The tests of one field are one lookup of its value
 * (a customer has one value a field): "from … to …" is then one range of the field's index, not
 * every value from the lower bound on, each checked against the upper one.
 *
 * Ranges: those of `counted` fields (at most HASHED_VALUES values) are read from their index, into
 * a hash tested by each customer read in order (`hash`; `coalesce` keeps the planner from making it
 * a join, which would read every customer of the scene first), or as the customers to find
 * (`join`); the others are looked up per customer. `estimate`: lookups only, which the planner can
 * estimate.
 */
function conditionsSql(
  conditions: FieldCondition[],
  counted: Set<string>,
  as: 'hash' | 'join' | 'estimate' = 'hash',
): SQL[] {
  const rangeTests = as === 'estimate' ? new Map<string, SQL[]>() : rangeTestsOf(conditions);
  const tests = new Map<string, SQL[]>();
  const out: SQL[] = [];
  for (const condition of conditions) {
    const test = valueTest(condition);
    if (test) tests.set(condition.fieldId, [...(tests.get(condition.fieldId) ?? []), test]);
    else if (condition.op === 'empty') out.push(sql`not ${valueWhere(condition.fieldId, sql`true`)}`);
    else out.push(valueWhere(condition.fieldId, sql`true`));
  }
  for (const [fieldId, all] of tests) {
    const test = sql.join(all, sql` and `);
    out.push(
      counted.has(fieldId)
        ? as === 'hash'
          ? sql`coalesce(cu.id in (select v.customer_id from profile_values v where v.field_id = ${fieldId}::uuid and ${test}), false)`
          : sql`cu.id in (select v.customer_id from profile_values v where v.field_id = ${fieldId}::uuid and ${test})`
        : rangeTests.has(fieldId)
          ? // Many match: each customer's value is looked up, also when finding the few (the planner,
            // expecting a sixth of them, would read them all into a hash first).
            sql`coalesce((select true from profile_values v where v.customer_id = cu.id
              and v.field_id = ${fieldId}::uuid and ${test} limit 1), false)`
          : valueWhere(fieldId, test),
    );
  }
  return out;
}

/** The latest score of each rating filter (`chat_customers.satisfaction_score`). */
const SCORES: Record<Exclude<SatisfactionFilter, 'unrated'>, SQL> = {
  satisfied: sql`in (4, 5)`,
  neutral: sql`= 3`,
  unsatisfied: sql`in (1, 2)`,
};

/**
 * The satisfaction filter: the score of the customer's latest rated survey, kept on the customer
 * by triggers on satisfaction_surveys (migration 0035). A list (`in (1, 2)`) rather than a range:
 * with a time window it is two ranges of `chat_customers_satisfaction_idx`, not every low rating.
 */
const satisfactionSql = (filter: SatisfactionFilter) =>
  filter === 'unrated' ? sql`cu.satisfaction_score is null` : sql`cu.satisfaction_score ${SCORES[filter]}`;

/**
 * An equals condition as a term of the customer's search document: '=' and the md5 of
 * "<field id>=<value>", as migration 0035's `profile_values_document` makes it for every value
 * shorter than 100 characters (a longer value cannot equal a shorter one, so the token is the whole
 * test); a longer condition is looked up in the values.
 */
const TOKEN_CHARS = 100;
const hasToken = (condition: FieldCondition): condition is FieldCondition & { op: 'eq'; value: string } =>
  condition.op === 'eq' && [...condition.value].length < TOKEN_CHARS;
const equalityToken = (fieldId: string, value: string) =>
  `'=${createHash('md5').update(`${fieldId.toLowerCase()}=${value}`, 'utf8').digest('hex')}'`;

/**
 * The keyword and the equals conditions, as tests of the customer's row. The keyword: a word the
 * name or a value begins with (Chinese, Japanese and Korean anywhere, by pairs of characters), as
 * chat history's message search reads it (search-terms.ts); or the channel's customer id exactly.
 *
 * `chat_customers.search_document` holds the name's terms, every value's terms and the values'
 * equality tokens (migration 0035), with a GIN index: a keyword with "city is 上海" is one lookup
 * of both terms, intersected in the index, and "level is VIP" alone a test of the row being read.
 * A keyword of several terms ("anna deliv", "加急配送") is looked up by its first term (the planner
 * multiplies the shares of terms that always come together, the pairs of one Chinese word, and
 * would expect almost nothing), then looked for in the text of the name or of one value, so the
 * terms must stand together and in order in one text.
 *
 * `estimate` is `row` without that text check, which the planner cannot estimate (it would expect
 * almost nothing to match). A keyword with no letter or digit (only `%`) has no terms and is looked
 * for in every name and value.
 */
function documentSql(keyword: string, tokens: string[]): { row: SQL; estimate: SQL } | null {
  const withTerms = (terms: string[]) => sql`cu.search_document @@ ${terms.join(' & ')}::tsquery`;
  const tokensOnly = tokens.length > 0 ? withTerms(tokens) : null;
  if (keyword === '') return tokensOnly && { row: tokensOnly, estimate: tokensOnly };
  const andTokens = (test: SQL) => (tokensOnly ? sql`(${test} and ${tokensOnly})` : test);
  // Compared as the terms are made: NFKC and lower case (full-width "ＶＩＰ" holds "vip").
  const folded = `%${escapeLike(keyword.normalize('NFKC').toLowerCase())}%`;
  const holds = (column: SQL) => sql`lower(normalize(${column}, NFKC)) like ${folded}`;
  const terms = keywordQueryOf(keyword);
  if (terms === null) {
    const row = andTokens(sql`(${holds(sql`cu.name`)} or cu.source_id = ${keyword} or exists (
      select 1 from profile_values v where v.customer_id = cu.id and ${holds(sql`v.value`)}))`);
    return { row, estimate: row };
  }
  const byId = andTokens(sql`cu.source_id = ${keyword}`);
  const split = terms.split(' & ');
  const indexed = withTerms([split[0] as string, ...tokens]);
  if (split.length === 1) {
    const row = sql`(${indexed} or ${byId})`;
    return { row, estimate: row };
  }
  const query = sql`${terms}::tsquery`;
  // The values' part as a scalar subquery, not `exists`: the planner would otherwise read every
  // value holding the keyword into a hash first, before the first row.
  const inOneText = sql`((cu.search_vector @@ ${query} and ${holds(sql`cu.name`)}) or coalesce((
      select true from profile_values v where v.customer_id = cu.id and v.search_vector @@ ${query}
        and ${holds(sql`v.value`)} limit 1), false))`;
  return {
    row: sql`((${indexed} and ${inOneText}) or ${byId})`,
    estimate: sql`(${indexed} or ${byId})`,
  };
}

/**
 * The filter as conditions on the customer `cu`, three ways: as tests of each customer's row
 * (`rowWhere`, reading in order), as the customers to find through the indexes those tests use
 * (`findWhere`), and for the planner's estimate (`estimateWhere`; documentSql says why); with each
 * ranged field's count (rangeCounts).
 */
export async function whereOf(db: Executor, scope: ProfileScope, filter: CustomerFilter, hashedValues: number) {
  const inScene = [sql`cu.space_id = ${scope.spaceId}::uuid`, sql`cu.scene_id = ${scope.sceneId}`];
  if (filter.window) {
    if (filter.window.from !== null) {
      inScene.push(sql`cu.last_active_at >= ${new Date(filter.window.from).toISOString()}::timestamptz`);
    }
    if (filter.window.to !== null) {
      inScene.push(sql`cu.last_active_at <= ${new Date(filter.window.to).toISOString()}::timestamptz`);
    }
  }
  const rowWhere = [...inScene];
  const estimateWhere = [...inScene];
  const tokens = filter.conditions
    .filter(hasToken)
    .map((condition) => equalityToken(condition.fieldId, condition.value));
  const document = documentSql(filter.keyword, tokens);
  if (document) {
    rowWhere.push(document.row);
    estimateWhere.push(document.estimate);
  }
  const untokened = filter.conditions.filter((condition) => !hasToken(condition));
  const counts = await rangeCounts(db, filter.conditions, hashedValues);
  const hashed = new Set([...counts].filter(([, n]) => n <= hashedValues).map(([fieldId]) => fieldId));
  const findWhere = [...rowWhere, ...conditionsSql(untokened, hashed, 'join')];
  rowWhere.push(...conditionsSql(untokened, hashed));
  // The planner cannot estimate a hash's share (it expects half): the lookups, for it.
  estimateWhere.push(...conditionsSql(untokened, new Set(), 'estimate'));
  if (filter.satisfaction) {
    for (const where of [rowWhere, findWhere, estimateWhere]) where.push(satisfactionSql(filter.satisfaction));
  }
  return { rowWhere, findWhere, estimateWhere, counts };
}
