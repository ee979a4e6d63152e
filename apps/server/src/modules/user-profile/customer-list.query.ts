import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { estimatedRows, hasPgCode, rowsOf } from '../../platform/db/sql.ts';
import { type CustomerFilter, type Executor, HASHED_VALUES, whereOf } from './customer-filter.sql.ts';
import type { ProfileScope } from './profile-scope.ts';
import type { CustomerRow } from './profile-value.repo.ts';

/**
 * The memory a query may use for one hash (PostgreSQL's `work_mem`, doubled for hashes), set for
 * the list's own transaction: 100 000 customers' ids take about 5 MB, and a hash the planner
 * expects not to fit would be searched from the start for every customer instead.
 */
const WORK_MEM = '16MB';

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
 *   every match before a bound could stop it) and the total is its estimate; a range counted to
 *   fewer bounds that estimate, and a range of one field alone has its count as the total.
 *
 * In one transaction, for its settings (WORK_MEM, no parallel workers). docs/user-profiles.md
 * ("Reading at scale") has the design and docs/benchmarks.md the figures at a million customers.
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
  /** Lowered by a test, to have ranges looked up both ways. */
  hashedValues = HASHED_VALUES,
): Promise<CustomerPage> {
  return withListSettings(db, (tx) => listIn(tx, scope, filter, page, fewCustomers, exactTotal, hashedValues));
}

/** `read` in one transaction with the list's settings (WORK_MEM, no parallel workers). */
function withListSettings<T>(db: Db, read: (tx: Executor) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local work_mem = '${WORK_MEM}'`));
    // A page is a few thousand index entries at most: starting parallel workers costs more than
    // it saves, and on a busy server it makes the time of a page swing by tens of milliseconds.
    await tx.execute(sql`set local max_parallel_workers_per_gather = 0`);
    return read(tx);
  });
}

/** How long an exact count may take before the list's estimate is left to stand. */
const COUNT_TIMEOUT = '20s';

/**
 * Every customer the filter finds, counted exactly (the list estimates beyond EXACT_TOTAL, and
 * can be several times off for combined conditions): asked by the page after the list, so the list
 * never waits for it. Null when counting took longer than COUNT_TIMEOUT.
 */
export async function countCustomers(db: Db, scope: ProfileScope, filter: CustomerFilter): Promise<number | null> {
  try {
    return await withListSettings(db, async (tx) => {
      await tx.execute(sql.raw(`set local statement_timeout = '${COUNT_TIMEOUT}'`));
      const { findWhere } = await whereOf(tx, scope, filter, HASHED_VALUES);
      const [row] = rowsOf<{ n: string | number }>(
        await tx.execute(sql`select count(*) as n from chat_customers cu where ${sql.join(findWhere, sql` and `)}`),
      );
      return Number(row?.n ?? 0);
    });
  } catch (error) {
    // 57014 query_canceled: the statement timeout.
    if (hasPgCode(error, '57014')) return null;
    throw error;
  }
}

/**
 * Up to `page.limit` ids of the scene's customers the filter matches (exactly the customers the
 * list shows), in id order from after `page.afterId`: keyset pages that a customer's activity
 * does not move, for reading a whole audience (activation events). The customers are found as the
 * list finds the few (its `findWhere`), through the keyword, value and rating indexes, or the
 * primary key read in order, as the planner sees fit.
 */
export async function matchingCustomerIds(
  db: Db,
  scope: ProfileScope,
  filter: CustomerFilter,
  page: { afterId: number; limit: number },
  /** Lowered by a test, to have ranges looked up both ways. */
  hashedValues = HASHED_VALUES,
): Promise<number[]> {
  return withListSettings(db, async (tx) => {
    const { findWhere } = await whereOf(tx, scope, filter, hashedValues);
    const rows = rowsOf<{ id: number | string }>(
      await tx.execute(sql`
        select cu.id from chat_customers cu
        where ${sql.join([...findWhere, sql`cu.id > ${page.afterId}::bigint`], sql` and `)}
        order by cu.id limit ${page.limit}`),
    );
    return rows.map((row) => Number(row.id));
  });
}

async function listIn(
  db: Executor,
  scope: ProfileScope,
  filter: CustomerFilter,
  page: { offset: number; limit: number },
  fewCustomers: number,
  exactTotal: number,
  hashedValues: number,
): Promise<CustomerPage> {
  // The same filter as tests of each customer's row (reading in order), as the few to find
  // through the indexes those tests use, and for the planner's estimate (whereOf).
  const { rowWhere, findWhere, estimateWhere, counts } = await whereOf(db, scope, filter, hashedValues);
  const inOrder = sql`from chat_customers cu where ${sql.join(rowWhere, sql` and `)}`;
  const matching = sql`from chat_customers cu where ${sql.join(findWhere, sql` and `)}`;
  const pageOf = async (from: SQL) =>
    withCounts(
      db,
      rowsOf<Listed>(
        await db.execute(sql`
          select cu.id, cu.name, cu.avatar_url, cu.source_id, cu.created_at, cu.first_message_at, cu.last_active_at ${from}
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
  // Ranges of one field and nothing else: its count is the total (up to HASHED_VALUES).
  const [onlyRange] = counts.size === 1 && !filter.keyword && !filter.satisfaction && !filter.window ? counts : [];
  if (
    onlyRange &&
    onlyRange[1] <= hashedValues &&
    filter.conditions.every((c) => c.fieldId === onlyRange[0] && (c.op === 'gte' || c.op === 'lte'))
  ) {
    if (onlyRange[1] > fewCustomers) {
      return answer(await pageOf(inOrder), { total: onlyRange[1], totalEstimated: false });
    }
  }
  // The planner's estimate decides first: counting many matches would cost more than the page. A
  // range counted to fewer bounds it.
  const estimate = Math.min(
    await estimatedRows(db, sql`select 1 from chat_customers cu where ${sql.join(estimateWhere, sql` and `)}`),
    ...[...counts.values()].filter((n) => n <= hashedValues),
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
            select cu.id, cu.name, cu.avatar_url, cu.source_id, cu.created_at, cu.first_message_at, cu.last_active_at
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
async function withCounts(db: Executor, rows: Listed[]): Promise<CustomerRow[]> {
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
