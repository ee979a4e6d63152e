import { z } from 'zod';
import { createTencentApi } from '../tencent-api.ts';

/**
 * WeCom customer service's server API (`qyapi.weixin.qq.com/cgi-bin/…`): pulling messages with
 * `kf/sync_msg`, sending with `kf/send_msg`, customers' names with `kf/customer/batchget`. The
 * access token comes from `gettoken` with the corp id and the customer-service secret.
 */

export class WecomApiError extends Error {
  constructor(
    message: string,
    readonly errcode?: number,
  ) {
    super(message);
    this.name = 'WecomApiError';
  }
}

export interface WecomKfOptions {
  apiBase: string;
  corpId: string;
  /** The secret of WeCom's customer-service app (微信客服 Secret). */
  secret: string;
  fetch?: typeof fetch;
  now?: () => number;
  timeoutMs?: number;
}

/** One entry of `msg_list`: a message (its body under the key named by `msgtype`) or an event. */
const syncedMessage = z
  .object({
    msgid: z.string().min(1),
    open_kfid: z.string(),
    external_userid: z.string().optional(),
    send_time: z.number().int(),
    /** 3 the customer, 4 the system (events), 5 a servicer in WeCom's own client. */
    origin: z.number().int(),
    servicer_userid: z.string().optional(),
    msgtype: z.string().min(1),
  })
  .passthrough();
export type KfSyncedMessage = z.infer<typeof syncedMessage>;

const syncPage = z.object({
  next_cursor: z.string().default(''),
  has_more: z.union([z.literal(0), z.literal(1)]),
  msg_list: z.array(syncedMessage),
});

const customers = z.object({
  customer_list: z
    .array(
      z
        .object({ external_userid: z.string(), nickname: z.string().default(''), avatar: z.string().default('') })
        .passthrough(),
    )
    .default([]),
  invalid_external_userid: z.array(z.string()).default([]),
});
export type KfCustomer = z.infer<typeof customers>['customer_list'][number];

const accounts = z.object({
  account_list: z
    .array(
      z.object({ open_kfid: z.string(), name: z.string().default(''), avatar: z.string().default('') }).passthrough(),
    )
    .default([]),
});
export type KfAccount = z.infer<typeof accounts>['account_list'][number];

/** `sync_msg` returns at most this many per page. */
const PAGE_LIMIT = 1000;
/** `customer/batchget` takes at most this many ids per call. */
const CUSTOMERS_PER_CALL = 100;
/** A server that keeps saying has_more past this many pages is broken; the pull stops there. */
const MAX_PAGES = 1000;
/** `account/list` pages: at most 100 accounts each; a corp has at most 5 000. */
const ACCOUNTS_PER_CALL = 100;
const MAX_ACCOUNTS = 5_000;

function parsed<T>(schema: z.ZodType<T>, json: unknown, what: string): T {
  const result = schema.safeParse(json);
  if (!result.success) throw new WecomApiError(`WeCom ${what} answer is not what its documentation says`);
  return result.data;
}

export function createWecomKfApi(opts: WecomKfOptions) {
  const { call, download, withToken } = createTencentApi({
    ...opts,
    service: 'WeCom',
    error: (message, errcode) => new WecomApiError(message, errcode),
    async requestToken(call) {
      const json = await call('/cgi-bin/gettoken', { corpid: opts.corpId, corpsecret: opts.secret });
      if (typeof json.access_token !== 'string' || typeof json.expires_in !== 'number') {
        throw new WecomApiError('WeCom token answer lacks access_token/expires_in');
      }
      return { token: json.access_token, expiresIn: json.expires_in };
    },
  });
  const post = (path: string, body: unknown) =>
    withToken((accessToken) => call(path, { access_token: accessToken }, body));

  async function syncOnce(from: { cursor: string; syncToken?: string; openKfId: string }) {
    const json = await post('/cgi-bin/kf/sync_msg', {
      cursor: from.cursor || undefined,
      token: from.syncToken || undefined,
      open_kfid: from.openKfId,
      limit: PAGE_LIMIT,
    });
    const page = parsed(syncPage, json, 'sync_msg');
    return { messages: page.msg_list, nextCursor: page.next_cursor, hasMore: page.has_more === 1 };
  }

  return {
    /** Gets an access token, which proves the corp id and secret right (a wrong one is a WecomApiError). */
    async checkCredentials() {
      await withToken(async () => ({}));
    },

    /**
     * Pulls everything new for one account, page by page from `cursor`, until WeCom says there is
     * no more: an empty page with has_more 1 is not the end. Each page goes to `onPage` with the
     * cursor that follows it before the next is asked for, so the caller stores a page and its
     * cursor together and a pull cut short resumes where it stopped. Returns the last cursor.
     */
    async pullNew(
      from: { cursor: string; syncToken?: string; openKfId: string },
      onPage: (messages: KfSyncedMessage[], nextCursor: string) => Promise<void>,
    ): Promise<string> {
      let cursor = from.cursor;
      for (let pages = 0; pages < MAX_PAGES; pages++) {
        const page = await syncOnce({ ...from, cursor });
        if (page.nextCursor) cursor = page.nextCursor;
        await onPage(page.messages, cursor);
        if (!page.hasMore) return cursor;
      }
      throw new WecomApiError(`WeCom sync_msg still had more after ${MAX_PAGES} pages`);
    },

    /** Sends a text reply. `msgid` is ours and makes a retried send the same message. */
    async sendText(message: { toUser: string; openKfId: string; msgid: string; content: string }) {
      const json = await post('/cgi-bin/kf/send_msg', {
        touser: message.toUser,
        open_kfid: message.openKfId,
        msgid: message.msgid,
        msgtype: 'text',
        text: { content: message.content },
      });
      return { msgid: typeof json.msgid === 'string' ? json.msgid : message.msgid };
    },

    /**
     * A message's media (`media/get`): WeCom keeps it three days. Refused past `maxBytes` without
     * reading the rest, so a hostile or broken answer cannot fill the memory.
     */
    async downloadMedia(mediaId: string, maxBytes: number) {
      return withToken((accessToken) =>
        download('/cgi-bin/media/get', { access_token: accessToken, media_id: mediaId }, maxBytes),
      );
    },

    /** The welcome a customer gets on entering a session, with the event's one-time `welcome_code`. */
    async sendWelcome(message: { code: string; msgid: string; content: string }) {
      await post('/cgi-bin/kf/send_msg_on_event', {
        code: message.code,
        msgid: message.msgid,
        msgtype: 'text',
        text: { content: message.content },
      });
    },

    /**
     * A menu the customer taps (`msgmenu`) with an event's one-time code, e.g. the `msg_code` of a
     * session's end: each tap comes back as a text message carrying the item's `menu_id`.
     */
    async sendMenuOnEvent(message: {
      code: string;
      msgid: string;
      head: string;
      items: { id: string; content: string }[];
      tail?: string;
    }) {
      await post('/cgi-bin/kf/send_msg_on_event', {
        code: message.code,
        msgid: message.msgid,
        msgtype: 'msgmenu',
        msgmenu: {
          head_content: message.head,
          list: message.items.map((item) => ({ type: 'click', click: { id: item.id, content: item.content } })),
          tail_content: message.tail ?? '',
        },
      });
    },

    /** Hands the conversation to the queue for a person (service state 2, "waiting in the pool"). */
    async transferToPool(conversation: { openKfId: string; externalUserId: string }) {
      await post('/cgi-bin/kf/service_state/trans', {
        open_kfid: conversation.openKfId,
        external_userid: conversation.externalUserId,
        service_state: 2,
      });
    },

    /** The corp's customer-service accounts (open_kfid, name, avatar), every page of them. */
    async accounts() {
      const found: KfAccount[] = [];
      for (let offset = 0; offset < MAX_ACCOUNTS; offset += ACCOUNTS_PER_CALL) {
        const json = await post('/cgi-bin/kf/account/list', { offset, limit: ACCOUNTS_PER_CALL });
        const page = parsed(accounts, json, 'account/list').account_list;
        found.push(...page);
        if (page.length < ACCOUNTS_PER_CALL) break;
      }
      return found;
    },

    /** Names and avatars of customers, 100 ids a call; ids WeCom does not know come back apart. */
    async customers(externalUserIds: string[]) {
      const found: KfCustomer[] = [];
      const invalid: string[] = [];
      for (let at = 0; at < externalUserIds.length; at += CUSTOMERS_PER_CALL) {
        const json = await post('/cgi-bin/kf/customer/batchget', {
          external_userid_list: externalUserIds.slice(at, at + CUSTOMERS_PER_CALL),
        });
        const answer = parsed(customers, json, 'customer/batchget');
        found.push(...answer.customer_list);
        invalid.push(...answer.invalid_external_userid);
      }
      return { customers: found, invalid };
    },
  };
}
export type WecomKfApi = ReturnType<typeof createWecomKfApi>;
