import {
  CHAT_LIMITS,
  CHAT_SEND_TYPES,
  CHAT_TYPES,
  type ChatSendType,
  type ChatType,
  type chatHistoryRoutes,
  type RouteBody,
  TIME_FILTERS,
  type TimeFilter,
} from '@athena/contract';
import { isRangeIncomplete as isTimeRangeIncomplete, timeRangeOf } from '../../lib/time-range.ts';

export type SendTypeOption = '' | ChatSendType;

/**
 * What narrows the conversation list. It lives in the page's address (with the open conversation),
 * so a filtered view survives a reload and can be sent as a link.
 */
export interface ChatFilters {
  chatType: '' | ChatType;
  sendType: SendTypeOption;
  /** '' is any time; 'custom' uses `from` and `to` (unix ms). */
  time: '' | TimeFilter;
  from: number | null;
  to: number | null;
  keyword: string;
  customerId: string | null;
  /** The chosen customer's name, kept beside the id so the picker can show it without a lookup. */
  customerName: string;
}

export const NO_FILTERS: ChatFilters = {
  chatType: '',
  sendType: '',
  time: '',
  from: null,
  to: null,
  keyword: '',
  customerId: null,
  customerName: '',
};

/** The query-string names of the filters, the conversation, the message to open it at and the scene. */
export const PARAM = {
  chatType: 'chat',
  sendType: 'send',
  time: 'time',
  from: 'from',
  to: 'to',
  keyword: 'q',
  customerId: 'customer',
  customerName: 'cname',
  conversation: 'c',
  anchor: 'm',
  scene: 'scene',
} as const;

const FILTER_PARAMS = [
  PARAM.chatType,
  PARAM.sendType,
  PARAM.time,
  PARAM.from,
  PARAM.to,
  PARAM.keyword,
  PARAM.customerId,
  PARAM.customerName,
] as const;

const oneOf = <T extends string>(values: readonly T[], value: string | null): value is T =>
  value !== null && (values as readonly string[]).includes(value);

const epochMs = (value: string | null): number | null => {
  if (value === null || !/^\d{1,14}$/.test(value)) return null;
  return Number(value);
};

/**
 * Reads the filters from the address; anything unknown or malformed counts as "no filter". A send
 * type this scene does not offer (`options`, from the scene's settings) is dropped too, so a link
 * made in another scene never filters by something the picker cannot show.
 */
export function filtersFromSearch(search: URLSearchParams, options?: readonly SendTypeOption[]): ChatFilters {
  const chatType = search.get(PARAM.chatType);
  const sendType = search.get(PARAM.sendType);
  const time = search.get(PARAM.time);
  const rawCustomer = search.get(PARAM.customerId);
  const customerId = rawCustomer && /^[\w-]{1,64}$/.test(rawCustomer) ? rawCustomer : null;
  const offered = oneOf(CHAT_SEND_TYPES, sendType) && (!options || options.includes(sendType));
  return {
    chatType: oneOf(CHAT_TYPES, chatType) ? chatType : '',
    sendType: offered ? (sendType as ChatSendType) : '',
    time: oneOf(TIME_FILTERS, time) ? time : '',
    from: epochMs(search.get(PARAM.from)),
    to: epochMs(search.get(PARAM.to)),
    keyword: (search.get(PARAM.keyword) ?? '').slice(0, CHAT_LIMITS.keyword),
    customerId,
    customerName: customerId ? (search.get(PARAM.customerName) ?? '').slice(0, 100) : '',
  };
}

/**
 * The address with these filters: only what differs from "no filter" is written, and every other
 * parameter (the open conversation, the scene) is kept as it is.
 */
export function withFilters(search: URLSearchParams, filters: ChatFilters): URLSearchParams {
  const next = new URLSearchParams(search);
  for (const name of FILTER_PARAMS) next.delete(name);
  const set = (name: string, value: string | number | null) => {
    if (value !== null && value !== '') next.set(name, String(value));
  };
  set(PARAM.chatType, filters.chatType);
  set(PARAM.sendType, filters.sendType);
  set(PARAM.time, filters.time);
  if (filters.time === 'custom') {
    set(PARAM.from, filters.from);
    set(PARAM.to, filters.to);
  }
  set(PARAM.keyword, filters.keyword);
  if (filters.customerId) {
    set(PARAM.customerId, filters.customerId);
    set(PARAM.customerName, filters.customerName);
  }
  return next;
}

type ListBody = NonNullable<RouteBody<typeof chatHistoryRoutes.conversationList>>;

/** The time part of the list call (lib/time-range.ts): a custom range only once it is complete. */
export function timeOf(filters: ChatFilters): ListBody['time'] {
  return timeRangeOf(filters);
}

/** True while "custom" is chosen without a usable range. */
export const isRangeIncomplete = (filters: ChatFilters) => isTimeRangeIncomplete(filters);

/** The list call's filters (the page adds the cursor); the key of the list's cache, too. */
export function listFilters(filters: ChatFilters) {
  return {
    chat_type: filters.chatType,
    send_type: filters.sendType,
    time: timeOf(filters),
    keyword: filters.keyword.trim(),
    customer_id: filters.customerId,
  } satisfies Omit<ListBody, 'cursor' | 'limit'>;
}

export type ListFilters = ReturnType<typeof listFilters>;

/** Whether anything narrows the list: an empty answer then means "no match", not "nothing yet". */
export function isFiltered(filters: ChatFilters): boolean {
  const body = listFilters(filters);
  return (
    body.chat_type !== '' ||
    body.send_type !== '' ||
    filters.time !== '' ||
    body.keyword !== '' ||
    body.customer_id !== null
  );
}
