/**
 * Chat-history messages: the display types the pages render, and the one table from each source's
 * message kinds to them (docs/chat-messages.md). Every message is shown as exactly one display type;
 * a kind we do not know is kept and shown as `unknown`, never dropped.
 */

/** The message types the chat-history pages render (requirements.md, Entities), plus `unknown`. */
export const MESSAGE_DISPLAY_TYPES = [
  'text',
  'image',
  'audio',
  'video',
  'link',
  'location',
  'raw_file',
  'mini_program',
  'channels',
  'channels_live',
  'mix',
  'unknown',
] as const;
export type MessageDisplayType = (typeof MESSAGE_DISPLAY_TYPES)[number];

/**
 * The numeric kind codes the other channels send through the ingest API (requirements.md,
 * Entities), each with its name and how it is displayed. Kinds without a display type of their
 * own take the nearest one: a sticker is an image, a person card or a channels account card is a
 * card (`link`, `channels`), a red packet and a contact notice are a line of text, and forwarded
 * message logs are a merged record (`mix`).
 */
export const MESSAGE_KINDS = {
  11041: { name: 'text', display: 'text' },
  11042: { name: 'image', display: 'image' },
  11043: { name: 'video', display: 'video' },
  11044: { name: 'audio', display: 'audio' },
  11045: { name: 'file', display: 'raw_file' },
  11046: { name: 'position', display: 'location' },
  11047: { name: 'link_card', display: 'link' },
  11048: { name: 'emotion', display: 'image' },
  11049: { name: 'red_packet', display: 'text' },
  11050: { name: 'person_card', display: 'link' },
  11066: { name: 'mini_program', display: 'mini_program' },
  11068: { name: 'unsupported', display: 'unknown' },
  11124: { name: 'video_account', display: 'channels' },
  11187: { name: 'contact_notify', display: 'text' },
  11211: { name: 'message_logs', display: 'mix' },
  21051: { name: 'video_account_person_card', display: 'channels' },
  80: { name: 'markdown', display: 'text' },
} as const satisfies Record<number, { name: string; display: MessageDisplayType }>;
export type MessageKindCode = keyof typeof MESSAGE_KINDS;

/** The kind a channel sends when it could not read a message itself; shown as `unknown`. */
export const PARSE_FAILED = 'ParseFailed';

/** How a message of this kind code is shown; unknown codes and ParseFailed are `unknown`. */
export function displayTypeOfKind(code: number | string): MessageDisplayType {
  const known =
    typeof code === 'number' ? (MESSAGE_KINDS as Record<number, { display: MessageDisplayType }>)[code] : undefined;
  return known?.display ?? 'unknown';
}

/**
 * WeCom customer service's `msgtype` values (`kf/sync_msg`) and how each is shown. A menu is text
 * with choices; shop products and orders are cards; `event` is not a message and is not listed.
 */
export const WECOM_MSGTYPE_DISPLAY = {
  text: 'text',
  image: 'image',
  voice: 'audio',
  video: 'video',
  file: 'raw_file',
  location: 'location',
  link: 'link',
  business_card: 'link',
  miniprogram: 'mini_program',
  msgmenu: 'text',
  channels_shop_product: 'link',
  channels_shop_order: 'link',
  merged_msg: 'mix',
  channels: 'channels',
  note: 'unknown',
} as const satisfies Record<string, MessageDisplayType>;

/** WeCom's `channels.sub_type`: 1 a post, 2 a live stream, 3 an account card. */
const WECOM_CHANNELS_LIVE = 2;

/** How a WeCom customer-service message is shown; a msgtype WeCom adds later is `unknown`. */
export function displayTypeOfWecom(msgtype: string, channelsSubType?: number): MessageDisplayType {
  if (msgtype === 'channels' && channelsSubType === WECOM_CHANNELS_LIVE) return 'channels_live';
  return Object.hasOwn(WECOM_MSGTYPE_DISPLAY, msgtype)
    ? WECOM_MSGTYPE_DISPLAY[msgtype as keyof typeof WECOM_MSGTYPE_DISPLAY]
    : 'unknown';
}
