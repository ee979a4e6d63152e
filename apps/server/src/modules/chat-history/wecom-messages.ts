import { type ChatPayload, displayTypeOfWecom, type MessageDisplayType } from '@athena/contract';
import type { KfSyncedMessage } from '../../platform/wecom/kf-api.ts';
import type { IncomingMessage } from './message-store.ts';

/**
 * WeCom customer service's `sync_msg` entries as chat history takes them (docs/wecom.md): a
 * message becomes an IncomingMessage of the scene; an event becomes a change to what is stored.
 * Bodies are read defensively: a field WeCom leaves out is shown as missing, never a failure.
 */

/** `origin`: 3 the customer, 4 the system (events), 5 a servicer in WeCom's own client. */
const FROM_CUSTOMER = 3;

export type KfEvent =
  | { kind: 'recalled'; msgId: string }
  | { kind: 'send_failed'; msgId: string; reason: string }
  | {
      kind: 'session';
      conversationSourceId: string;
      state: 'human' | 'ended' | 'waiting';
      servicer: string | null;
      /** For `chat.stored`: the event's msgid, customer, time and (on an end) its msg_code. */
      eventId: string;
      externalUserId: string;
      at: Date;
      msgCode: string;
    }
  | { kind: 'enter_session'; openKfId: string; externalUserId: string; welcomeCode: string; eventId: string; at: Date }
  | { kind: 'ignored' };

type Body = Record<string, unknown>;
const isBody = (value: unknown): value is Body => typeof value === 'object' && value !== null && !Array.isArray(value);
const bodyOf = (message: KfSyncedMessage, key: string): Body => {
  const value = (message as Record<string, unknown>)[key];
  return isBody(value) ? value : {};
};
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A string WeCom sent, as the database can store it: NULs dropped, lone surrogates replaced, cut
 * at whole characters. Anything else reads as empty. A string that could not be stored would stop
 * the account's pulls at that page for good.
 */
export function str(value: unknown, max = 2_000): string {
  if (typeof value !== 'string') return '';
  const clean = value.replaceAll('\0', '').replace(LONE_SURROGATE, '\uFFFD');
  return clean.length <= max ? clean : [...clean].slice(0, max).join('');
}
const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const httpUrl = (value: unknown) => {
  const url = str(value);
  return /^https?:\/\/\S+$/i.test(url) ? url : undefined;
};
/** Drops the keys whose value is undefined or empty, so a payload holds only what WeCom gave. */
const compact = (payload: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(payload).filter(([, value]) => value !== undefined && value !== '')) as ChatPayload;

/** A private conversation is one customer with one customer-service account. */
export const conversationSourceIdOf = (openKfId: string, externalUserId: string) => `${openKfId}:${externalUserId}`;

function contentAndPayload(message: KfSyncedMessage): {
  content: string;
  payload: ChatPayload;
  mediaId: string | null;
} {
  const body = bodyOf(message, message.msgtype);
  switch (message.msgtype) {
    case 'text':
      // A tap on a menu item comes back as text with the item's id (satisfaction replies, menu clicks).
      return {
        content: str(body.content, 20_000),
        payload: compact({ menu_id: str(body.menu_id, 128) }),
        mediaId: null,
      };
    case 'image':
    case 'voice':
    case 'video':
    case 'file':
      return { content: '', payload: {}, mediaId: str(body.media_id) || null };
    case 'location':
      return {
        content: str(body.name),
        payload: compact({
          latitude: num(body.latitude),
          longitude: num(body.longitude),
          title: str(body.name, 500),
          address: str(body.address, 500),
        }),
        mediaId: null,
      };
    case 'link':
      return {
        content: str(body.title),
        payload: compact({
          title: str(body.title, 500),
          description: str(body.desc),
          url: httpUrl(body.url),
          thumb_url: httpUrl(body.pic_url),
        }),
        mediaId: null,
      };
    case 'miniprogram':
      return {
        content: str(body.title),
        payload: compact({
          title: str(body.title, 500),
          app_name: str(body.appid, 200),
          page_path: str(body.pagepath, 1_000),
        }),
        mediaId: str(body.thumb_media_id) || null,
      };
    case 'msgmenu':
      return { content: str(body.head_content), payload: { menu: menuOf(body) }, mediaId: null };
    case 'channels':
      return {
        content: str(body.title),
        payload: compact({ title: str(body.title, 500), description: str(body.nickname) }),
        mediaId: null,
      };
    case 'channels_shop_product':
      return {
        content: str(body.title),
        payload: compact({
          title: str(body.title, 500),
          description: [str(body.shop_nickname), str(body.sales_price)].filter(Boolean).join(' · '),
          thumb_url: httpUrl(body.head_image),
        }),
        mediaId: null,
      };
    case 'channels_shop_order':
      return {
        content: str(body.product_titles),
        payload: compact({
          title: str(body.product_titles, 500),
          description: [str(body.shop_nickname), str(body.price_wording), str(body.state)].filter(Boolean).join(' · '),
          thumb_url: httpUrl(body.image_url),
          // Kept apart for behaviour data, which reads the order's amount from it (behaviour.service.ts).
          price_wording: str(body.price_wording, 100),
        }),
        mediaId: null,
      };
    case 'merged_msg':
      return {
        content: str(body.title),
        payload: { title: str(body.title, 500), records: recordsOf(body) },
        mediaId: null,
      };
    case 'business_card':
      return { content: '', payload: compact({ title: str(body.userid, 500) }), mediaId: null };
    default:
      return { content: '', payload: {}, mediaId: null };
  }
}

function menuOf(body: Body): NonNullable<ChatPayload['menu']> {
  const list = Array.isArray(body.list) ? body.list.filter(isBody) : [];
  return {
    head: str(body.head_content, 1_000),
    tail: str(body.tail_content, 1_000),
    items: list.slice(0, 20).map((entry, index) => {
      const inner = isBody(entry[str(entry.type)]) ? (entry[str(entry.type)] as Body) : {};
      return { id: str(inner.id, 128) || String(index), content: str(inner.content, 500) };
    }),
  };
}

function recordsOf(body: Body): NonNullable<ChatPayload['records']> {
  const items = Array.isArray(body.item) ? body.item.filter(isBody) : [];
  return items.slice(0, 200).map((item) => {
    let content = '';
    try {
      const inner = JSON.parse(str(item.msg_content, 20_000)) as Body;
      content = str(bodyOf(inner as KfSyncedMessage, str(item.msgtype)).content, 5_000);
    } catch {}
    const displayType: MessageDisplayType = displayTypeOfWecom(str(item.msgtype));
    return { sender: str(item.sender_name, 200), content, display_type: displayType, at: num(item.send_time) ?? null };
  });
}

/** A message of the pull as the store takes it, or null for an event. */
export function incomingOfKf(message: KfSyncedMessage, channelName: string): IncomingMessage | null {
  const msgId = str(message.msgid, 128);
  const openKfId = str(message.open_kfid, 128);
  const customer = str(message.external_userid, 128);
  if (message.msgtype === 'event' || !customer || !msgId) return null;
  const { content, payload, mediaId } = contentAndPayload(message);
  const fromCustomer = message.origin === FROM_CUSTOMER;
  return {
    sourceMsgId: msgId,
    conversation: {
      sourceId: conversationSourceIdOf(openKfId, customer),
      chatType: 'private',
      title: '',
      channelId: openKfId,
      channelName: str(channelName, 128),
    },
    customer: { sourceId: customer, name: '', avatarUrl: null },
    // A servicer writing in WeCom's own client is a person; our own sends are stored when sent.
    sendType: fromCustomer ? 'user' : 'human',
    senderName: fromCustomer ? '' : str(message.servicer_userid, 100),
    displayType: displayTypeOfWecom(
      message.msgtype,
      message.msgtype === 'channels' ? num(bodyOf(message, 'channels').sub_type) : undefined,
    ),
    sourceKind: `wecom:${str(message.msgtype, 64)}`,
    content,
    payload,
    mediaId,
    sentAt: new Date(message.send_time * 1000),
    recalled: false,
    status: fromCustomer ? 'received' : 'sent',
  };
}

/** `session_status_change`'s change_type: 1 taken from the queue, 2 transferred, 3 ended, 4 taken up again. */
const SESSION_STATE: Record<number, 'human' | 'ended'> = { 1: 'human', 2: 'human', 3: 'ended', 4: 'human' };

export function eventOfKf(message: KfSyncedMessage): KfEvent {
  if (message.msgtype !== 'event') return { kind: 'ignored' };
  const event = bodyOf(message, 'event');
  switch (str(event.event_type)) {
    case 'user_recall_msg':
    case 'servicer_recall_msg':
      return str(event.recall_msgid) ? { kind: 'recalled', msgId: str(event.recall_msgid) } : { kind: 'ignored' };
    case 'msg_send_fail':
      return str(event.fail_msgid)
        ? {
            kind: 'send_failed',
            msgId: str(event.fail_msgid),
            reason: `WeCom fail_type ${num(event.fail_type) ?? '?'}`,
          }
        : { kind: 'ignored' };
    case 'session_status_change': {
      const state = SESSION_STATE[num(event.change_type) ?? 0];
      const customer = str(event.external_userid);
      if (!state || !customer) return { kind: 'ignored' };
      return {
        kind: 'session',
        conversationSourceId: conversationSourceIdOf(str(event.open_kfid) || message.open_kfid, customer),
        state,
        servicer: str(event.new_servicer_userid) || null,
        eventId: str(message.msgid, 128),
        externalUserId: customer,
        at: new Date(message.send_time * 1000),
        msgCode: str(event.msg_code, 512),
      };
    }
    case 'enter_session': {
      const customer = str(event.external_userid);
      const welcomeCode = str(event.welcome_code);
      if (!customer || !welcomeCode) return { kind: 'ignored' };
      return {
        kind: 'enter_session',
        openKfId: str(event.open_kfid) || message.open_kfid,
        externalUserId: customer,
        welcomeCode,
        eventId: str(message.msgid, 128),
        at: new Date(message.send_time * 1000),
      };
    }
    default:
      return { kind: 'ignored' };
  }
}
