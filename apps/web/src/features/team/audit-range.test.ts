import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { dayRange } from './audit-range.ts';

describe('dayRange', () => {
  it('covers whole days in the given zone', () => {
    expect(dayRange(dayjs('2025-03-01'), dayjs('2025-03-07'), 'Asia/Shanghai')).toEqual({
      from: '2025-02-28T16:00:00.000Z',
      to: '2025-03-07T15:59:59.999Z',
    });
    expect(dayRange(dayjs('2025-03-01'), dayjs('2025-03-01'), 'UTC')).toEqual({
      from: '2025-03-01T00:00:00.000Z',
      to: '2025-03-01T23:59:59.999Z',
    });
  });
});
