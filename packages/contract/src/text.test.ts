import { describe, expect, it } from 'vitest';
import { behaviourPushEventSchema } from './customer-behaviour.ts';
import { apiKeyField } from './model-key.ts';
import { isStorableJson, isStorableText, text } from './text.ts';

describe('text: the strings PostgreSQL can store', () => {
  it.each([
    ['plain', true],
    ['中文与 emoji 👩‍👩‍👧', true],
    ['', true],
    ['a\u0000b', false],
    ['lone high \uD83D', false],
    ['lone low \uDC69 here', false],
    ['\uDC69\uD83D', false],
  ])('%j → %s', (value, storable) => {
    expect(isStorableText(value)).toBe(storable);
    const issue = text().safeParse(value).error?.issues[0]?.message;
    expect(issue).toBe(storable ? undefined : 'TEXT_UNSTORABLE');
  });

  it('keeps the chained rules of a string', () => {
    const name = text().trim().min(1).max(3);
    expect(name.parse(' ab ')).toBe('ab');
    expect(name.safeParse('abcd').success).toBe(false);
  });

  it('lets a model key hold printable ASCII only, since it travels in a header', () => {
    expect(apiKeyField.parse(' sk-abc_123.XYZ ')).toBe('sk-abc_123.XYZ');
    for (const bad of ['sk 123', 'sk-密钥', 'sk-👩‍👩‍👧']) {
      expect(apiKeyField.safeParse(bad).error?.issues[0]?.message).toBe('API_KEY_CHARACTERS');
    }
  });

  it('checks every key and string of free-form JSON, and bounds its nesting', () => {
    expect(isStorableJson({ a: ['x', { b: '中文 👩‍👩‍👧' }], n: 1, t: true, z: null })).toBe(true);
    expect(isStorableJson({ a: ['ok', { b: 'a\u0000b' }] })).toBe(false);
    expect(isStorableJson({ 'key \uD83D': 1 })).toBe(false);
    expect(isStorableJson({ a: { b: { c: { d: { e: { f: 1 } } } } } })).toBe(false);
    const event = { event_id: 'e-1', customer_id: 'c-1', kind: 'custom', occurred_at: 1 };
    expect(behaviourPushEventSchema.safeParse({ ...event, detail: { note: 'fine' } }).success).toBe(true);
    const refused = behaviourPushEventSchema.safeParse({ ...event, detail: { note: ['x\uDC69'] } });
    expect(refused.error?.issues[0]?.message).toBe('TEXT_UNSTORABLE');
  });
});
