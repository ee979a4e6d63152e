import { describe, expect, it } from 'vitest';
import { type ExtractField, extractionSchema, readAnswer, skippedReason } from './extraction-rules.ts';

const field = (name: string, type: ExtractField['type'], options: string[] = [], description = ''): ExtractField => ({
  id: name,
  name,
  type,
  options,
  description,
  aiOverwrite: false,
});
const fields = [
  field('city', 'text', [], 'Where the customer lives'),
  field('budget', 'number'),
  field('visit', 'date'),
  field('intent', 'select', ['buy', 'rent']),
];

describe('AI extraction rules', () => {
  it('builds a strict schema with one nullable property per field', () => {
    expect(extractionSchema(fields)).toEqual({
      type: 'object',
      properties: {
        city: { type: ['string', 'null'], description: 'Where the customer lives' },
        budget: { type: ['number', 'null'] },
        visit: { type: ['string', 'null'], description: 'A date as YYYY-MM-DD.' },
        intent: { type: ['string', 'null'], enum: ['buy', 'rent', null] },
      },
      required: ['city', 'budget', 'visit', 'intent'],
      additionalProperties: false,
    });
  });

  it('reads values with the fields’ own rules', () => {
    const read = readAnswer(fields, '{"city":" Shanghai ","budget":"+012.50","visit":"2026-12-01","intent":"buy"}');
    expect(read.ok && read.readings.map((r) => (r.kind === 'value' ? r.value.value : r.why))).toEqual([
      'Shanghai',
      '12.5',
      '2026-12-01',
      'buy',
    ]);
  });

  it('fails an answer that is not a JSON object, and accepts one in a Markdown fence', () => {
    expect(readAnswer(fields, 'The city is Shanghai')).toMatchObject({ ok: false });
    expect(readAnswer(fields, '[1,2]')).toMatchObject({ ok: false });
    expect(readAnswer(fields, 'null')).toMatchObject({ ok: false });
    expect(readAnswer(fields, '```json\n{"budget": 3}\n```')).toMatchObject({
      ok: true,
      readings: [{ kind: 'value' }],
    });
  });

  it('skips what does not fit, and reads null, missing and empty as nothing', () => {
    const read = readAnswer(
      fields,
      `{"city":"${'x'.repeat(1001)}","budget":1e24,"visit":"2026-02-30","intent":"sell","other":"x","__proto__":{"a":1}}`,
    );
    if (!read.ok) throw new Error('expected a reading');
    expect(read.readings.map((r) => (r.kind === 'skipped' ? `${r.name}: ${r.why}` : 'value'))).toEqual([
      'city: too long',
      'budget: not a number',
      'visit: not a date',
      'intent: not an option',
      'other: no such field',
      '__proto__: no such field',
    ]);
    expect(skippedReason(read.readings)).toContain('intent: not an option');
    const empty = readAnswer(fields, '{"city":null,"budget":"  ","intent":null}');
    expect(empty).toEqual({ ok: true, readings: [] });
    expect(skippedReason([])).toBeNull();
    const wrongTypes = readAnswer(fields, '{"city":5,"visit":20261201,"intent":["buy"],"budget":true}');
    expect(wrongTypes.ok && wrongTypes.readings.every((r) => r.kind === 'skipped')).toBe(true);
  });
});
