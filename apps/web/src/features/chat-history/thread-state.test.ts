import type { ChatHistoryMessage } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { threadAround, threadFromNewest, withNewer, withOlder, withSent, withUpdates } from './thread-state.ts';

const message = (id: number, patch: Partial<ChatHistoryMessage> = {}): ChatHistoryMessage => ({
  id: String(id),
  conversation_id: '1',
  send_type: 'user',
  sender_name: '',
  display_type: 'text',
  source_kind: '11041',
  content: `#${id}`,
  payload: {},
  status: 'received',
  fail_reason: null,
  media_state: 'none',
  media_error: null,
  media_url: null,
  recalled: false,
  sent_at: new Date(1_700_000_000_000 + id * 1000).toISOString(),
  ...patch,
});
const ids = (items: ChatHistoryMessage[]) => items.map((m) => Number(m.id));
const page = (from: number, to: number, has_more: boolean) => ({
  items: Array.from({ length: to - from + 1 }, (_, i) => message(from + i)),
  has_more,
});

describe('a thread’s loaded stretch', () => {
  it('starts at the newest page and grows upwards', () => {
    let thread = threadFromNewest(page(51, 100, true));
    expect(thread.hasOlder).toBe(true);
    thread = withOlder(thread, page(1, 50, false));
    expect(ids(thread.items)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(thread.hasOlder).toBe(false);
  });

  it('adds live messages once, even when a page overlaps', () => {
    let thread = threadFromNewest(page(1, 3, false));
    thread = withNewer(thread, page(3, 5, false));
    thread = withNewer(thread, page(5, 6, false));
    expect(ids(thread.items)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('opens at a found message with what lies on both sides', () => {
    const thread = threadAround(page(20, 29, true), page(30, 39, true));
    expect(ids(thread.items)[0]).toBe(20);
    expect(thread).toMatchObject({ hasOlder: true, hasNewer: true });
    expect(withNewer(thread, page(40, 42, false)).hasNewer).toBe(false);
  });

  it('opened near the end, is at the live end', () => {
    const thread = threadAround(page(1, 9, false), page(10, 10, false));
    expect(thread).toMatchObject({ hasOlder: false, hasNewer: false });
    expect(ids(thread.items)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('replaces a recalled message in place and leaves unknown ones out', () => {
    const thread = threadFromNewest(page(1, 3, false));
    const next = withUpdates(thread, [message(2, { recalled: true }), message(9)]);
    expect(next.items[1].recalled).toBe(true);
    expect(ids(next.items)).toEqual([1, 2, 3]);
    expect(withUpdates(next, [message(2, { recalled: true })])).toBe(next);
  });
});

describe('a reply just sent', () => {
  it('goes at the end, or replaces the copy a live catch-up brought', () => {
    const thread = threadFromNewest(page(1, 3, false));
    const sent = message(4, { send_type: 'human', status: 'sent' });
    expect(ids(withSent(thread, sent).items)).toEqual([1, 2, 3, 4]);
    const caught = withNewer(thread, {
      items: [message(4, { send_type: 'human', status: 'sending' })],
      has_more: false,
    });
    const settled = withSent(caught, sent);
    expect(ids(settled.items)).toEqual([1, 2, 3, 4]);
    expect(settled.items[3].status).toBe('sent');
  });

  it('is left out when the loaded stretch does not reach the end', () => {
    const thread = { ...threadFromNewest(page(1, 3, false)), hasNewer: true };
    expect(withSent(thread, message(9)).items).toHaveLength(3);
  });
});
