import type { StartInput } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { readInputs } from './run-inputs.ts';

const input = (name: string, type: StartInput['type'], extra: Partial<StartInput> = {}): StartInput => ({
  name,
  label: '',
  type,
  required: true,
  options: [],
  max_length: null,
  ...extra,
});

describe('the test run form', () => {
  const inputs = [
    input('q', 'text', { max_length: 5 }),
    input('n', 'number'),
    input('pick', 'select', { options: ['a', 'b'] }),
    input('data', 'json'),
    input('doc', 'file', { required: false }),
    input('note', 'paragraph', { required: false }),
  ];

  it('takes numbers as numbers, JSON parsed, choices offered, and leaves out empty optional ones', () => {
    expect(readInputs(inputs, { q: '你好', n: ' 4.5 ', pick: 'b', data: '{"a":[1]}', doc: 'file-1' })).toEqual({
      values: { q: '你好', n: 4.5, pick: 'b', data: { a: [1] }, doc: 'file-1' },
      refusals: {},
    });
  });

  it('refuses each problem beside its field, as the server would', () => {
    expect(readInputs(inputs, { q: '123456', n: 'four', pick: 'c', data: '{a', note: '   ' }).refusals).toEqual({
      q: 'tooLong',
      n: 'number',
      pick: 'option',
      data: 'json',
    });
    expect(readInputs(inputs, { n: '', pick: '  ' }).refusals).toEqual({
      q: 'required',
      n: 'required',
      pick: 'required',
      data: 'required',
    });
  });

  it('counts characters, not UTF-16 units, against the length', () => {
    expect(readInputs([input('q', 'text', { max_length: 2 })], { q: '😀😀' }).refusals).toEqual({});
  });
});
