import { isStorableText } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import type { KfSyncedMessage } from '../../platform/wecom/kf-api.ts';
import { eventOfKf, incomingOfKf, str } from './wecom-messages.ts';

const base = { msgid: 'm1', open_kfid: 'wk1', external_userid: 'wm1', send_time: 1_764_000_000, origin: 3 };
const kf = (fields: Record<string, unknown>) => ({ ...base, ...fields }) as KfSyncedMessage;

describe('WeCom messages as chat history takes them', () => {
  it('makes every string storable: no NUL, no half of an emoji, cut at whole characters', () => {
    expect(str('a\u0000b')).toBe('ab');
    expect(str('x\uD83D')).toBe('x\uFFFD');
    expect(str('🚚🚚🚚', 2)).toBe('🚚🚚');
    expect(str(42)).toBe('');
    const text = incomingOfKf(kf({ msgtype: 'text', text: { content: `${'好'.repeat(19_999)}🚚\u0000` } }), 'wk1');
    expect(isStorableText(text?.content ?? '')).toBe(true);
  });

  it('reads each msgtype into its display type, and odd bodies as missing rather than failing', () => {
    const menu = incomingOfKf(
      kf({
        msgtype: 'msgmenu',
        msgmenu: { head_content: '请选择', list: [null, { type: 'click', click: { id: '1', content: '满意' } }, 7] },
      }),
      'wk1',
    );
    expect(menu).toMatchObject({
      displayType: 'text',
      content: '请选择',
      payload: { menu: { items: [{ id: '1', content: '满意' }] } },
    });
    const merged = incomingOfKf(
      kf({
        msgtype: 'merged_msg',
        merged_msg: { title: '聊天记录', item: [null, { msgtype: 'text', msg_content: '{bad json' }] },
      }),
      'wk1',
    );
    expect(merged?.payload.records).toEqual([{ sender: '', content: '', display_type: 'text', at: null }]);
    expect(incomingOfKf(kf({ msgtype: 'image', image: 'not an object' }), 'wk1')).toMatchObject({
      displayType: 'image',
      mediaId: null,
    });
    expect(
      incomingOfKf(kf({ msgtype: 'channels', channels: { sub_type: 2, title: '直播' } }), 'wk1')?.displayType,
    ).toBe('channels_live');
    expect(incomingOfKf(kf({ msgtype: 'brand_new_type' }), 'wk1')).toMatchObject({
      displayType: 'unknown',
      sourceKind: 'wecom:brand_new_type',
    });
    expect(
      incomingOfKf(kf({ msgtype: 'text', text: { content: 'hi' }, origin: 5, servicer_userid: 'li' }), 'wk1'),
    ).toMatchObject({
      sendType: 'human',
      senderName: 'li',
    });
  });

  it('reads events, and ignores the ones it cannot act on', () => {
    const event = (body: Record<string, unknown>) => eventOfKf(kf({ msgtype: 'event', origin: 4, event: body }));
    expect(event({ event_type: 'user_recall_msg', recall_msgid: 'm0' })).toEqual({ kind: 'recalled', msgId: 'm0' });
    expect(event({ event_type: 'msg_send_fail', fail_msgid: 'c1', fail_type: 4 })).toMatchObject({
      kind: 'send_failed',
      msgId: 'c1',
    });
    expect(event({ event_type: 'session_status_change', change_type: 3, external_userid: 'wm1' })).toMatchObject({
      kind: 'session',
      state: 'ended',
      conversationSourceId: 'wk1:wm1',
    });
    expect(event({ event_type: 'enter_session', external_userid: 'wm1', welcome_code: 'W' })).toMatchObject({
      kind: 'enter_session',
      welcomeCode: 'W',
    });
    expect(event({ event_type: 'session_status_change', change_type: 99, external_userid: 'wm1' })).toEqual({
      kind: 'ignored',
    });
    expect(event({ event_type: 'user_recall_msg' })).toEqual({ kind: 'ignored' });
  });
});
