import { describe, expect, it } from 'vitest';
import {
  displayTypeOfKind,
  displayTypeOfWecom,
  MESSAGE_DISPLAY_TYPES,
  MESSAGE_KINDS,
  PARSE_FAILED,
  WECOM_MSGTYPE_DISPLAY,
} from './chat-messages.ts';

describe('chat message display types', () => {
  it('maps every kind code of the spec, and nothing else, to one display type', () => {
    const codes = Object.keys(MESSAGE_KINDS)
      .map(Number)
      .sort((a, b) => a - b);
    expect(codes).toEqual([
      80, 11041, 11042, 11043, 11044, 11045, 11046, 11047, 11048, 11049, 11050, 11066, 11068, 11124, 11187, 11211,
      21051,
    ]);
    for (const code of codes) expect(MESSAGE_DISPLAY_TYPES).toContain(displayTypeOfKind(code));
  });

  it('shows what it does not know as unknown instead of dropping it', () => {
    expect(displayTypeOfKind(PARSE_FAILED)).toBe('unknown');
    expect(displayTypeOfKind(11068)).toBe('unknown');
    expect(displayTypeOfKind(99999)).toBe('unknown');
    expect(displayTypeOfKind('11041')).toBe('unknown'); // codes are numbers; a string is not one
    expect(displayTypeOfWecom('hologram')).toBe('unknown');
    expect(displayTypeOfWecom('toString')).toBe('unknown');
    expect(displayTypeOfWecom('__proto__')).toBe('unknown');
  });

  it('reads both sources the same way: each display type and what is shown as it', () => {
    const shownAs = (display: string) => ({
      kinds: Object.entries(MESSAGE_KINDS)
        .filter(([, kind]) => kind.display === display)
        .map(([, kind]) => kind.name),
      wecom: Object.entries(WECOM_MSGTYPE_DISPLAY)
        .filter(([, shown]) => shown === display)
        .map(([msgtype]) => msgtype),
    });
    // Numeric keys come out in ascending order: 80, 11041, 11049, 11187.
    expect(shownAs('text')).toEqual({
      kinds: ['markdown', 'text', 'red_packet', 'contact_notify'],
      wecom: ['text', 'msgmenu'],
    });
    expect(shownAs('image')).toEqual({ kinds: ['image', 'emotion'], wecom: ['image'] });
    expect(shownAs('audio')).toEqual({ kinds: ['audio'], wecom: ['voice'] });
    expect(shownAs('video')).toEqual({ kinds: ['video'], wecom: ['video'] });
    expect(shownAs('raw_file')).toEqual({ kinds: ['file'], wecom: ['file'] });
    expect(shownAs('location')).toEqual({ kinds: ['position'], wecom: ['location'] });
    expect(shownAs('link')).toEqual({
      kinds: ['link_card', 'person_card'],
      wecom: ['link', 'business_card', 'channels_shop_product', 'channels_shop_order'],
    });
    expect(shownAs('mini_program')).toEqual({ kinds: ['mini_program'], wecom: ['miniprogram'] });
    expect(shownAs('channels')).toEqual({ kinds: ['video_account', 'video_account_person_card'], wecom: ['channels'] });
    expect(shownAs('mix')).toEqual({ kinds: ['message_logs'], wecom: ['merged_msg'] });
    expect(shownAs('unknown')).toEqual({ kinds: ['unsupported'], wecom: ['note'] });
    // Only WeCom says which channels message is a live stream.
    expect(displayTypeOfWecom('channels', 2)).toBe('channels_live');
    expect(displayTypeOfWecom('channels', 1)).toBe('channels');
    expect(displayTypeOfWecom('channels', 3)).toBe('channels');
  });
});
