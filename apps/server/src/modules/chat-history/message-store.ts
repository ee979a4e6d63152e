import type { ChatPayload, ChatSendType, ChatType, MessageDisplayType } from '@athena/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { rowsOf } from '../../platform/db/sql.ts';
import { searchTermsOf } from './search-terms.ts';

/** A message as every source hands it over: the ingest API, WeCom customer service, our replies. */
export interface IncomingMessage {
  sourceMsgId: string;
  conversation: { sourceId: string; chatType: ChatType; title: string; channelId: string; channelName: string };
  customer: { sourceId: string; name: string; avatarUrl: string | null } | null;
  sendType: ChatSendType;
  senderName: string;
  displayType: MessageDisplayType;
  sourceKind: string;
  content: string;
  payload: ChatPayload;
  /** The source's id of the media the message carries, to download into storage. */
  mediaId?: string | null;
  sentAt: Date;
  recalled: boolean;
  status: 'received' | 'sending' | 'sent' | 'failed';
}

/** One bit per send type, for a conversation's `send_types` (the migration that added it uses the same). */
export const SEND_TYPE_BITS: Record<ChatSendType, number> = {
  user: 1,
  ai_full: 2,
  ai_assisted: 4,
  human: 8,
  ai_manual: 16,
  fixed: 32,
};

export interface StoreResult {
  /** Messages new to the database. */
  stored: number;
  /** Messages that were there already (a retried callback or batch), left as they were. */
  duplicates: number;
  /** Conversations that got new messages or a recall: what live readers are told about. */
  conversationIds: number[];
  /** Conversations that got new messages from their customer: what automatic replies answer. */
  customerConversationIds: number[];
  /** New messages whose media is to be downloaded. */
  mediaMessageIds: number[];
  /** Every message new to the database (what `chat.stored` carries). */
  messageIds: number[];
}

/**
 * Stores messages of one space and scene, idempotently on the source's message id: a batch sent
 * twice, a callback retried, or two pulls racing store each message once and count it once. A
 * message seen again with `recalled` marks the stored one recalled. All in one transaction, so a
 * batch is stored whole or not at all.
 */
/**
 * pg_advisory_xact_lock key every transaction that writes messages holds shared, before its ids
 * are handed out. Ids are handed out at insert and become visible at commit, so a lower id may
 * appear after a higher one was read; settledMessageId takes the lock alone for a moment, when no
 * writer is between the two, to find the id up to which every message is there for good.
 */
const MESSAGE_WRITERS_LOCK = 1_740_861;

/**
 * The highest message id below which no message can still appear: whoever reads messages in id
 * order from a watermark (the reports' summary job) reads up to it and never skips a late commit.
 * New writers wait while it is taken, for as long as the writers before them take to commit.
 */
export async function settledMessageId(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MESSAGE_WRITERS_LOCK})`);
    const [row] = rowsOf<{ id: string | number }>(
      await tx.execute(sql`select coalesce(max(id), 0) as id from chat_messages`),
    );
    return Number(row?.id ?? 0);
  });
}

export async function storeMessages(db: Db, spaceId: string, sceneId: number, incoming: IncomingMessage[]) {
  const messages = distinctById(incoming);
  if (messages.length === 0) {
    return {
      stored: 0,
      duplicates: 0,
      conversationIds: [],
      customerConversationIds: [],
      mediaMessageIds: [],
      messageIds: [],
    } satisfies StoreResult;
  }
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock_shared(${MESSAGE_WRITERS_LOCK})`);
    const customerIds = await upsertCustomers(tx, spaceId, sceneId, messages);
    const conversationIds = await upsertConversations(tx, spaceId, sceneId, messages, customerIds);
    const rows = messages.map((message) => ({
      conversation_id: conversationIds.get(message.conversation.sourceId),
      source_msg_id: message.sourceMsgId,
      send_type: message.sendType,
      sender_name: message.senderName,
      display_type: message.displayType,
      source_kind: message.sourceKind,
      content: message.content,
      payload: message.payload,
      media_id: message.mediaId ?? null,
      terms: searchTermsOf(`${message.content} ${message.payload.title ?? ''} ${message.payload.file_name ?? ''}`),
      status: message.status,
      recalled: message.recalled,
      sent_at: message.sentAt.toISOString(),
    }));
    // Only rows inserted or newly recalled come back; xmax is 0 on a row this statement inserted.
    const written = rowsOf<WrittenRow>(
      await tx.execute(sql`
        insert into chat_messages (space_id, scene_id, conversation_id, source_msg_id, send_type, sender_name,
          display_type, source_kind, content, payload, source_media_id, media_state, search_vector, status, recalled,
          sent_at)
        select ${spaceId}::uuid, ${sceneId}, r.conversation_id, r.source_msg_id, r.send_type, r.sender_name,
          r.display_type, r.source_kind, r.content, r.payload, r.media_id,
          case when r.media_id is null then 'none' else 'pending' end, array_to_tsvector(r.terms), r.status,
          r.recalled, r.sent_at
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(conversation_id bigint, source_msg_id text,
          send_type text, sender_name text, display_type text, source_kind text, content text, payload jsonb,
          media_id text, terms text[], status text, recalled boolean, sent_at timestamptz)
        on conflict (space_id, scene_id, source_msg_id) do update set recalled = true
          where excluded.recalled and not chat_messages.recalled
        returning id, conversation_id, send_type, sent_at, (xmax = 0) as inserted,
          (source_media_id is not null) as has_media`),
    );
    const inserted = written.filter((row) => row.inserted);
    await countIntoConversations(tx, inserted);
    return {
      stored: inserted.length,
      duplicates: messages.length - inserted.length,
      conversationIds: [...new Set(written.map((row) => Number(row.conversation_id)))],
      customerConversationIds: [
        ...new Set(inserted.filter((row) => row.send_type === 'user').map((row) => Number(row.conversation_id))),
      ],
      mediaMessageIds: inserted.filter((row) => row.has_media).map((row) => Number(row.id)),
      messageIds: inserted.map((row) => Number(row.id)),
    } satisfies StoreResult;
  });
}

/** One message per source id; a copy saying it was recalled makes it recalled. */
function distinctById(messages: IncomingMessage[]) {
  const byId = new Map<string, IncomingMessage>();
  for (const message of messages) {
    const seen = byId.get(message.sourceMsgId);
    if (!seen) byId.set(message.sourceMsgId, message);
    else if (message.recalled && !seen.recalled) byId.set(message.sourceMsgId, { ...seen, recalled: true });
  }
  return [...byId.values()];
}

/** The map's keys as one SQL text array (through JSON: source ids may hold any character). */
const sourceIdsOf = (bySource: Map<string, unknown>) =>
  sql`array(select jsonb_array_elements_text(${JSON.stringify([...bySource.keys()])}::jsonb))`;

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Customers by source id: created when new, their name and avatar refreshed when given and
 * different, their last activity raised to their newest message in the batch (only what the
 * customer said counts: our replies and proactive messages are not the customer being active), and
 * when they were first seen lowered to the batch's earliest message of theirs (any sender).
 * Rows that would not change are only read: an update writes a new row version even when nothing
 * changed, and on the embedded database, which has no autovacuum, those dead versions stay until
 * the maintenance job vacuums (a batch touches about one customer per message).
 *
 * This is the only place a message batch writes customers, and it comes before conversations: every
 * writer locks customers, then conversations, never the other way round, so two batches (or a batch
 * and a reply) cannot deadlock on a customer and a conversation.
 */
async function upsertCustomers(tx: Tx, spaceId: string, sceneId: number, messages: IncomingMessage[]) {
  const bySource = new Map<
    string,
    NonNullable<IncomingMessage['customer']> & { saidAt: number | null; firstAt: number }
  >();
  for (const message of messages) {
    if (!message.customer) continue;
    const said = message.sendType === 'user' ? message.sentAt.getTime() : null;
    const seen = bySource.get(message.customer.sourceId);
    const before = seen?.saidAt ?? null;
    const saidAt = said === null ? before : before === null ? said : Math.max(before, said);
    const firstAt = Math.min(seen?.firstAt ?? Number.POSITIVE_INFINITY, message.sentAt.getTime());
    bySource.set(message.customer.sourceId, { ...message.customer, saidAt, firstAt });
  }
  if (bySource.size === 0) return new Map<string, number>();
  const ids = new Map<string, number>();
  for (const row of rowsOf<{
    id: number | string;
    source_id: string;
    name: string;
    avatar_url: string | null;
    last_active_at: Date | string | null;
    first_message_at: Date | string | null;
  }>(
    await tx.execute(sql`
      select id, source_id, name, avatar_url, last_active_at, first_message_at from chat_customers
      where space_id = ${spaceId}::uuid and scene_id = ${sceneId} and source_id = any(${sourceIdsOf(bySource)})`),
  )) {
    const customer = bySource.get(row.source_id);
    const unchanged =
      customer &&
      (customer.name === '' || customer.name === row.name) &&
      (customer.avatarUrl === null || customer.avatarUrl === row.avatar_url) &&
      (customer.saidAt === null ||
        (row.last_active_at !== null && new Date(row.last_active_at).getTime() >= customer.saidAt)) &&
      row.first_message_at !== null &&
      new Date(row.first_message_at).getTime() <= customer.firstAt;
    if (unchanged) ids.set(row.source_id, Number(row.id));
  }
  // Sorted, so two batches lock the same rows in the same order and never deadlock.
  const rows = [...bySource.values()]
    .filter((customer) => !ids.has(customer.sourceId))
    .sort((a, b) => (a.sourceId < b.sourceId ? -1 : 1))
    .map((customer) => ({
      source_id: customer.sourceId,
      name: customer.name,
      avatar_url: customer.avatarUrl,
      said_at: customer.saidAt === null ? null : new Date(customer.saidAt).toISOString(),
      first_at: new Date(customer.firstAt).toISOString(),
    }));
  if (rows.length === 0) return ids;
  const result = rowsOf<{ id: number; source_id: string }>(
    await tx.execute(sql`
      insert into chat_customers (space_id, scene_id, source_id, name, avatar_url, last_active_at, first_message_at)
      select ${spaceId}::uuid, ${sceneId}, r.source_id, r.name, r.avatar_url, r.said_at, r.first_at
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(source_id text, name text, avatar_url text,
        said_at timestamptz, first_at timestamptz)
      on conflict (space_id, scene_id, source_id) do update set
        name = case when excluded.name <> '' then excluded.name else chat_customers.name end,
        avatar_url = coalesce(excluded.avatar_url, chat_customers.avatar_url),
        last_active_at = greatest(chat_customers.last_active_at, excluded.last_active_at),
        first_message_at = least(chat_customers.first_message_at, excluded.first_message_at)
      returning id, source_id`),
  );
  for (const row of result) ids.set(row.source_id, Number(row.id));
  return ids;
}

/**
 * Conversations by source id, created when new; an existing one is rewritten here only when its
 * title, channel name or customer changes (as with customers, unchanged rows are only read). Its
 * counts, first and last message are set afterwards, by the one update the new messages need.
 */
async function upsertConversations(
  tx: Tx,
  spaceId: string,
  sceneId: number,
  messages: IncomingMessage[],
  customerIds: Map<string, number>,
) {
  const bySource = new Map<string, { message: IncomingMessage; customerId: number | null; firstAt: Date }>();
  for (const message of messages) {
    const seen = bySource.get(message.conversation.sourceId);
    const customerId = message.customer ? (customerIds.get(message.customer.sourceId) ?? null) : null;
    bySource.set(message.conversation.sourceId, {
      message,
      customerId: customerId ?? seen?.customerId ?? null,
      firstAt: seen && seen.firstAt < message.sentAt ? seen.firstAt : message.sentAt,
    });
  }
  const titleOf = (message: IncomingMessage) => message.conversation.title || message.customer?.name || '';
  const ids = new Map<string, number>();
  for (const row of rowsOf<{
    id: number | string;
    source_id: string;
    title: string;
    channel_name: string;
    customer_id: number | string | null;
  }>(
    await tx.execute(sql`
      select id, source_id, title, channel_name, customer_id from chat_conversations
      where space_id = ${spaceId}::uuid and scene_id = ${sceneId} and source_id = any(${sourceIdsOf(bySource)})`),
  )) {
    const incoming = bySource.get(row.source_id);
    if (!incoming) continue;
    const title = titleOf(incoming.message);
    const channelName = incoming.message.conversation.channelName;
    const unchanged =
      (title === '' || title === row.title) &&
      (channelName === '' || channelName === row.channel_name) &&
      (row.customer_id !== null || incoming.customerId === null);
    if (unchanged) ids.set(row.source_id, Number(row.id));
  }
  const rows = [...bySource.entries()]
    .filter(([sourceId]) => !ids.has(sourceId))
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([sourceId, { message, customerId, firstAt }]) => ({
      source_id: sourceId,
      chat_type: message.conversation.chatType,
      title: titleOf(message),
      channel_id: message.conversation.channelId,
      channel_name: message.conversation.channelName,
      customer_id: customerId,
      first_at: firstAt.toISOString(),
    }));
  if (rows.length === 0) return ids;
  const result = rowsOf<{ id: number; source_id: string }>(
    await tx.execute(sql`
      insert into chat_conversations (space_id, scene_id, source_id, chat_type, title, channel_id, channel_name,
        customer_id, first_message_at, last_message_at)
      select ${spaceId}::uuid, ${sceneId}, r.source_id, r.chat_type, r.title, r.channel_id, r.channel_name,
        r.customer_id, r.first_at, r.first_at
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(source_id text, chat_type text, title text,
        channel_id text, channel_name text, customer_id bigint, first_at timestamptz)
      on conflict (space_id, scene_id, source_id) do update set
        title = case when excluded.title <> '' then excluded.title else chat_conversations.title end,
        channel_name = case when excluded.channel_name <> '' then excluded.channel_name else chat_conversations.channel_name end,
        customer_id = coalesce(chat_conversations.customer_id, excluded.customer_id)
      returning id, source_id`),
  );
  for (const row of result) ids.set(row.source_id, Number(row.id));
  return ids;
}

interface WrittenRow {
  id: number | string;
  conversation_id: number | string;
  send_type: string;
  sent_at: Date | string;
  inserted: boolean;
  has_media: boolean;
}

/**
 * Adds newly inserted messages to their conversations: the count, the unread customer messages,
 * the send types, the first message's time when it is older, and the newest message when it is
 * newer than the one there. Each inserted row comes back to
 * exactly one transaction, so adding is exact however many batches race; the update locks the
 * conversation row and compares with what the other transaction left.
 */
async function countIntoConversations(tx: Tx, inserted: WrittenRow[]) {
  if (inserted.length === 0) return;
  const byConversation = new Map<
    number,
    { count: number; fromCustomers: number; types: number; firstAt: number; lastId: number; lastAt: number }
  >();
  for (const row of inserted) {
    const conversationId = Number(row.conversation_id);
    const at = new Date(row.sent_at).getTime();
    const id = Number(row.id);
    const entry = byConversation.get(conversationId) ?? {
      count: 0,
      fromCustomers: 0,
      types: 0,
      firstAt: at,
      lastId: id,
      lastAt: at,
    };
    entry.count += 1;
    entry.firstAt = Math.min(entry.firstAt, at);
    entry.types |= SEND_TYPE_BITS[row.send_type as ChatSendType] ?? 0;
    if (row.send_type === 'user') entry.fromCustomers += 1;
    if (at > entry.lastAt || (at === entry.lastAt && id > entry.lastId))
      Object.assign(entry, { lastId: id, lastAt: at });
    byConversation.set(conversationId, entry);
  }
  const rows = [...byConversation.entries()]
    .sort(([a], [b]) => a - b)
    .map(([id, entry]) => ({
      id,
      count: entry.count,
      from_customers: entry.fromCustomers,
      types: entry.types,
      first_at: new Date(entry.firstAt).toISOString(),
      last_id: entry.lastId,
      last_at: new Date(entry.lastAt).toISOString(),
    }));
  await tx.execute(sql`
    update chat_conversations c set
      message_count = c.message_count + r.count,
      unread = c.unread + r.from_customers,
      send_types = c.send_types | r.types,
      first_message_at = least(c.first_message_at, r.first_at),
      last_message_id = case when c.last_message_id is null or (r.last_at, r.last_id) > (c.last_message_at, c.last_message_id)
        then r.last_id else c.last_message_id end,
      last_message_at = case when c.last_message_id is null or (r.last_at, r.last_id) > (c.last_message_at, c.last_message_id)
        then r.last_at else c.last_message_at end
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id bigint, count int, from_customers int, types int,
      first_at timestamptz, last_id bigint, last_at timestamptz)
    where c.id = r.id`);
}
