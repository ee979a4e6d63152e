import { describe, expect, it } from 'vitest';
import { readParameters, schemaOf } from './extractor.ts';
import { classIn, jsonObjectIn } from './json-reply.ts';

const classes = [
  { id: 'refund', name: 'Asks for money back' },
  { id: 'bug', name: 'Reports a defect' },
  { id: 'other', name: '其他问题' },
];

describe('reading what a model answered', () => {
  it('finds the JSON object in fenced, chatty or bare replies', () => {
    expect(jsonObjectIn('{"a":1}')).toEqual({ a: 1 });
    expect(jsonObjectIn('Sure! Here it is:\n```json\n{"a": [1, 2]}\n```\nAnything else?')).toEqual({ a: [1, 2] });
    expect(jsonObjectIn('Echo: the answer is {"city":"Shanghai"} and {not json}')).toEqual({ city: 'Shanghai' });
    expect(jsonObjectIn('no json here')).toBeNull();
    expect(jsonObjectIn('[1,2,3]')).toBeNull();
  });

  it('picks a class by exact id, JSON, the first id written, or its name; null when none', () => {
    expect(classIn('bug', classes)?.id).toBe('bug');
    expect(classIn(' "refund". ', classes)?.id).toBe('refund');
    expect(classIn('`other`', classes)?.id).toBe('other');
    expect(classIn('{"class_id": "bug"}', classes)?.id).toBe('bug');
    expect(classIn('I think it is bug, not refund', classes)?.id).toBe('bug');
    // "bugfix" contains an id but is another word.
    expect(classIn('a bugfix question', classes)).toBeNull();
    expect(classIn('这是其他问题', classes)?.id).toBe('other');
    expect(classIn('no idea', classes)).toBeNull();
  });

  it('fills extractor parameters with their types and says which required ones are missing', () => {
    const parameters = [
      { name: 'city', type: 'string' as const, description: 'where', required: true },
      { name: 'days', type: 'number' as const, description: '', required: true },
      { name: 'tags', type: 'array[string]' as const, description: '', required: false },
    ];
    expect(schemaOf(parameters)).toMatchObject({ required: ['city', 'days'], properties: { tags: { type: 'array' } } });
    expect(readParameters('{"city":"Paris","days":"3"}', parameters)).toEqual({
      values: { city: 'Paris', days: 3, tags: null },
      reason: null,
    });
    expect(readParameters('{"city":"Paris","days":"soon"}', parameters).reason).toContain('days');
    expect(readParameters('sorry', parameters).reason).toContain('JSON');
  });
});
