import { ERRORS, type ProfileChange, type ProfileField } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { checkValue, cleanOptions, optionsValid, undoableIds } from './profile-values.ts';

const field = (type: ProfileField['type'], required = false): ProfileField => ({
  id: '1',
  name: '等级',
  type,
  options: type === 'select' ? ['金卡', '银卡'] : [],
  required,
  ai_extract: false,
  ai_overwrite: false,
  description: '',
  position: 0,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
});

describe('checkValue', () => {
  it('puts values in the canonical form', () => {
    expect(checkValue(field('number'), ' +12.50 ', 'en')).toEqual({ ok: true, value: '+12.50' });
    expect(checkValue(field('number'), '.5', 'en').ok).toBe(true);
    expect(checkValue(field('number'), '.', 'en').ok).toBe(false);
    expect(checkValue(field('date'), '2026-02-28', 'en')).toEqual({ ok: true, value: '2026-02-28' });
    expect(checkValue(field('select'), '金卡', 'en')).toEqual({ ok: true, value: '金卡' });
    expect(checkValue(field('text'), ' hi ', 'en')).toEqual({ ok: true, value: 'hi' });
    expect(checkValue(field('text'), '  ', 'en')).toEqual({ ok: true, value: null });
  });

  it("refuses a wrong type in the server's words", () => {
    expect(checkValue(field('number'), '12a', 'en')).toEqual({
      ok: false,
      message: 'The value of "等级" is not right: a number.',
    });
    expect(checkValue(field('date'), '2026-02-30', 'zh-CN').ok).toBe(false);
    expect(checkValue(field('select'), '铜卡', 'zh-CN')).toEqual({
      ok: false,
      message: '「等级」的内容格式不对：应为以下选项之一：金卡、银卡。',
    });
    expect(checkValue(field('text'), 'x'.repeat(1001), 'en')).toEqual({
      ok: false,
      message: ERRORS.PROFILE_VALUE_TOO_LONG.msg.en,
    });
  });

  it('keeps a required field from being emptied', () => {
    expect(checkValue(field('text', true), '', 'zh-TW')).toEqual({
      ok: false,
      message: ERRORS.PROFILE_VALUE_REQUIRED.msg['zh-TW'].replace('{field}', '等级'),
    });
  });
});

const change = (id: string, fieldId: string, revertedBy: string | null = null): ProfileChange => ({
  id,
  field_id: fieldId,
  field_name: fieldId,
  old_value: null,
  new_value: 'x',
  source: 'person',
  actor_name: 'A',
  message_id: null,
  reverted_by: revertedBy,
  created_at: '2026-01-01T00:00:00Z',
});

describe('undoableIds', () => {
  it("offers only each field's newest change, unless it was undone", () => {
    const ids = undoableIds([change('5', 'a'), change('4', 'b', '6'), change('3', 'a'), change('2', 'c')]);
    expect([...ids].sort()).toEqual(['2', '5']);
  });
});

describe('select options', () => {
  it('are trimmed, deduplicated and counted', () => {
    expect(cleanOptions([' A', 'A', '', 'B '])).toEqual(['A', 'B']);
    expect(optionsValid([])).toBe(false);
    expect(optionsValid(['x'.repeat(51)])).toBe(false);
    expect(optionsValid(['A'])).toBe(true);
  });
});
