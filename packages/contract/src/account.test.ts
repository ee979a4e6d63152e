import { describe, expect, it } from 'vitest';
import { idNumberField, isValidIdNumber, realNameField } from './account.ts';

describe('isValidIdNumber (GB 11643 check character)', () => {
  it('accepts real-format numbers, including an X check character in either case', () => {
    for (const value of [
      '11010519491231002X', // the standard's own example
      '11010519491231002x',
      '440524188001010014',
      '110101199003071233',
      '310104198001011239',
      '510107198811110016',
      '110101199001010007',
    ]) {
      expect(isValidIdNumber(value), value).toBe(true);
    }
  });

  it('refuses a wrong check character', () => {
    for (const value of ['110105194912310021', '11010519491231002Y', '44052418800101001X', '110101199003071234']) {
      expect(isValidIdNumber(value), value).toBe(false);
    }
  });

  it('refuses wrong lengths, letters, spaces and the old 15-digit form', () => {
    for (const value of [
      '',
      '11010519491231002', // 17 digits
      '1101051949123100200', // 19
      '110105491231002', // 15-digit first-generation card
      '1101051949123100X2',
      'A1010519491231002X',
      'ABCDEFGHIJKLMNOPQR',
      '110105 19491231002X',
      '１１０１０５１９４９１２３１００２Ｘ', // full-width digits
    ]) {
      expect(isValidIdNumber(value), value).toBe(false);
    }
  });
});

describe('real-name fields', () => {
  it('trims and upper-cases an ID number, and names the error key when it is wrong', () => {
    expect(idNumberField.parse(' 11010519491231002x ')).toBe('11010519491231002X');
    const failure = idNumberField.safeParse('11010519491231002');
    expect(failure.success).toBe(false);
    expect(failure.error?.issues[0].message).toBe('ID_NUMBER_INVALID');
    expect(idNumberField.safeParse(undefined).error?.issues[0].message).toBe('ID_NUMBER_INVALID');
  });

  it('requires a non-blank name', () => {
    expect(realNameField.parse(' 张三 ')).toBe('张三');
    for (const value of ['', '   ', undefined]) {
      expect(realNameField.safeParse(value).error?.issues[0].message).toBe('REAL_NAME_REQUIRED');
    }
  });
});
