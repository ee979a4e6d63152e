import type { ReportDay } from '@athena/contract';
import { describe, expect, it } from 'vitest';
import { totalsOf } from './report-kpis.tsx';

const day = (patch: Partial<ReportDay>): ReportDay => ({
  day: '2026-03-10',
  sessions: 0,
  new_customers: 0,
  messages: { user: 0, ai_full: 0, ai_assisted: 0, human: 0, ai_manual: 0, fixed: 0 },
  asked: 0,
  replied: 0,
  first_response_seconds: null,
  replied_within: { m1: 0, m5: 0, m30: 0 },
  handed_over: 0,
  ai_resolved: 0,
  activation_sent: 0,
  activation_failed: 0,
  surveys_requested: 0,
  surveys_rated: 0,
  satisfaction_score: null,
  ...patch,
});

describe('report totals', () => {
  it('weights each day’s means by its count, and skips days without any', () => {
    const totals = totalsOf([
      day({ sessions: 2, asked: 2, replied: 2, first_response_seconds: 75, surveys_rated: 1, satisfaction_score: 5 }),
      day({ sessions: 2, asked: 2, replied: 1, first_response_seconds: 20, surveys_rated: 3, satisfaction_score: 2 }),
      day({}),
    ]);
    expect(totals.sessions).toBe(4);
    // (75 × 2 + 20 × 1) / 3 replies.
    expect(totals.responseSeconds / totals.replied).toBeCloseTo(170 / 3);
    // (5 × 1 + 2 × 3) / 4 ratings.
    expect(totals.scoreSum / totals.rated).toBe(2.75);
  });
});
