import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { escapeLike } from '../../platform/db/like.ts';
import { rowsOf } from '../../platform/db/sql.ts';
import type { ProfileScope } from './profile-scope.ts';
import type { CustomerRow } from './profile-value.repo.ts';

/** A search condition on one field, already checked against the field (profile.service.ts). */
export type FieldCondition =
  | { fieldId: string; op: 'eq'; value: string }
  | { fieldId: string; op: 'contains'; value: string }
  | { fieldId: string; op: 'gte' | 'lte'; on: 'number' | 'date'; value: string }
  | { fieldId: string; op: 'empty' | 'not_empty' };

export interface CustomerFilter {
  keyword: string;
  conditions: FieldCondition[];
  /** Last activity within this window (unix ms); `to` null is open-ended. */
  window: { from: number; to: number | null } | null;
}

const valueWhere = (fieldId: string, test: SQL) =>
  sql`exists (select 1 from profile_values v where v.customer_id = cu.id and v.field_id = ${fieldId}::uuid and ${test})`;

function conditionSql(condition: FieldCondition): SQL {
  switch (condition.op) {
    case 'eq':
      // The index holds the value's start (a long text would not fit an entry); the rest is checked after.
      return valueWhere(
        condition.fieldId,
        sql`left(v.value, 100) = left(${condition.value}, 100) and v.value = ${condition.value}`,
      );
    case 'contains':
      return valueWhere(condition.fieldId, sql`v.value ilike ${`%${escapeLike(condition.value)}%`}`);
    case 'gte':
    case 'lte': {
      const column = condition.on === 'number' ? sql`v.value_number` : sql`v.value_date`;
      const bound = condition.on === 'number' ? sql`${condition.value}::numeric` : sql`${condition.value}::date`;
      return valueWhere(
        condition.fieldId,
        condition.op === 'gte' ? sql`${column} >= ${bound}` : sql`${column} <= ${bound}`,
      );
    }
    case 'empty':
      return sql`not ${valueWhere(condition.fieldId, sql`true`)}`;
    default:
      return valueWhere(condition.fieldId, sql`true`);
  }
}

type Listed = Omit<CustomerRow, 'conversation_count' | 'message_count'>;

/**
 * At most this many customers matching the keyword and values: they are found first and sorted
 * by their activity. More: the conversations are walked newest first, checking each customer.
 */
export const FEW_CUSTOMERS = 5_000;

/**
 * A page of the scene's customers, most recently active first, with the total that match.
 * A customer's last activity is the last message of the conversations they are the customer of;
 * customers never active (none of their own) come after the others, newest first. Ties go by the
 * newest conversation's id, so both ways below give the same order.
 *
 * - No filter on the customer, or one that many match: walk `chat_conversations_recent_idx`
 *   backwards and keep each customer's newest conversation (a newer one is looked for through
 *   `chat_conversations_customer_idx`), checking the customer's filters on the way. A page costs
 *   about as many probes as it has rows, divided by the share of customers that match.
 * - A filter few match (`FEW_CUSTOMERS`, counted first): find those customers through the
 *   value indexes and the name, read each one's newest conversation, sort them.
 *
 * docs/user-profiles.md has the measurements and the plan for very large scenes.
 */
export async function listCustomers(
  db: Db,
  scope: ProfileScope,
  filter: CustomerFilter,
  page: { offset: number; limit: number },
  /** Lowered by a test, to have both ways list the same customers. */
  fewCustomers = FEW_CUSTOMERS,
): Promise<{ rows: CustomerRow[]; total: number }> {
  const customerWhere = [sql`cu.space_id = ${scope.spaceId}::uuid`, sql`cu.scene_id = ${scope.sceneId}`];
  if (filter.keyword) {
    const like = `%${escapeLike(filter.keyword)}%`;
    // The scene's values holding it, found once (a hashed list), not looked up customer by customer.
    customerWhere.push(sql`(cu.name ilike ${like} or cu.source_id = ${filter.keyword} or cu.id in (
      select v.customer_id from profile_values v join profile_fields f on f.id = v.field_id
      where f.space_id = ${scope.spaceId}::uuid and f.scene_id = ${scope.sceneId} and v.value ilike ${like}))`);
  }
  for (const condition of filter.conditions) customerWhere.push(conditionSql(condition));
  const customers = sql.join(customerWhere, sql` and `);
  const windowOn = (column: SQL) =>
    filter.window
      ? sql.join(
          [
            sql`${column} >= ${new Date(filter.window.from).toISOString()}::timestamptz`,
            ...(filter.window.to === null
              ? []
              : [sql`${column} <= ${new Date(filter.window.to).toISOString()}::timestamptz`]),
          ],
          sql` and `,
        )
      : sql`true`;
  const countOf = async (query: SQL) =>
    Number(rowsOf<{ n: string | number }>(await db.execute(sql`select count(*) as n ${query}`))[0]?.n ?? 0);

  const filtered = customerWhere.length > 2;
  const matching = filtered ? await countOf(sql`from chat_customers cu where ${customers}`) : null;
  if (matching !== null && matching <= fewCustomers) {
    const found = sql`
      from chat_customers cu
      left join lateral (
        select c.last_message_at, c.id from chat_conversations c where c.customer_id = cu.id
        order by c.last_message_at desc, c.id desc limit 1
      ) a on true
      where ${customers} and ${filter.window ? windowOn(sql`a.last_message_at`) : sql`true`}`;
    const rows = rowsOf<Listed>(
      await db.execute(sql`
        select cu.id, cu.name, cu.avatar_url, cu.source_id, cu.created_at, a.last_message_at as last_active_at
        ${found}
        order by a.last_message_at desc nulls last, a.id desc nulls last, cu.id desc
        limit ${page.limit} offset ${page.offset}`),
    );
    return { rows: await withCounts(db, rows), total: filter.window ? await countOf(found) : matching };
  }

  const active = sql`from chat_conversations c join chat_customers cu on cu.id = c.customer_id
    where c.space_id = ${scope.spaceId}::uuid and c.scene_id = ${scope.sceneId} and c.customer_id is not null
      and not exists (select 1 from chat_conversations n where n.customer_id = c.customer_id
        and n.last_message_at >= c.last_message_at and (n.last_message_at, n.id) > (c.last_message_at, c.id))
      and ${customers} and ${windowOn(sql`c.last_message_at`)}`;
  const rows = rowsOf<Listed>(
    await db.execute(sql`
      select cu.id, cu.name, cu.avatar_url, cu.source_id, cu.created_at, c.last_message_at as last_active_at
      ${active}
      order by c.last_message_at desc, c.id desc
      limit ${page.limit} offset ${page.offset}`),
  );
  const lastPage = rows.length < page.limit && (rows.length > 0 || page.offset === 0);
  // A time window leaves out whoever was never active.
  if (filter.window) {
    return { rows: await withCounts(db, rows), total: lastPage ? page.offset + rows.length : await countOf(active) };
  }
  const total = matching ?? (await countOf(sql`from chat_customers cu where ${customers}`));
  if (rows.length < page.limit && page.offset + rows.length < total) {
    // The page reaches past the active customers: the rest of it is those never active.
    const activeCount = rows.length > 0 ? page.offset + rows.length : await countOf(active);
    const idle = rowsOf<Listed>(
      await db.execute(sql`
        select cu.id, cu.name, cu.avatar_url, cu.source_id, cu.created_at, null as last_active_at
        from chat_customers cu
        where ${customers} and not exists (select 1 from chat_conversations c where c.customer_id = cu.id)
        order by cu.id desc
        limit ${page.limit - rows.length} offset ${Math.max(0, page.offset - activeCount)}`),
    );
    rows.push(...idle);
  }
  return { rows: await withCounts(db, rows), total };
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
