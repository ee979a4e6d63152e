import { describe, expect, it } from 'vitest';
import { exportFileName } from './download-csv.ts';

describe('the name of an exported CSV', () => {
  const today = new Date('2026-03-04T10:00:00Z');

  it('is the one the server gives, plain or RFC 5987-encoded', () => {
    expect(exportFileName('attachment; filename="athena-fees-2026-03-04.csv"', today, 'athena-fees')).toBe(
      'athena-fees-2026-03-04.csv',
    );
    expect(exportFileName("attachment; filename*=UTF-8''%E8%B4%B9%E7%94%A8.csv", today, 'athena-fees')).toBe(
      '费用.csv',
    );
  });

  it("falls back to one with today's date", () => {
    expect(exportFileName(null, today, 'athena-fees')).toBe('athena-fees-2026-03-04.csv');
    expect(exportFileName("attachment; filename*=UTF-8''%E8%B4", today, 'athena-fees')).toBe(
      'athena-fees-2026-03-04.csv',
    );
  });
});
