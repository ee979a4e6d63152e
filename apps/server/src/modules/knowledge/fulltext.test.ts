import { describe, expect, it } from 'vitest';
import { idfOf, planFulltext } from './fulltext.ts';

const stats = (segments: number, frequency: Record<string, number>) => ({
  segments,
  frequency: new Map(Object.entries(frequency)),
});

describe('planFulltext', () => {
  it('finds candidates through the rarest terms up to the budget; the rest only rank', () => {
    const plan = planFulltext(
      ['可以', '报销', '高铁', '出差'],
      stats(100_000, { 可以: 18_000, 报销: 236, 高铁: 149, 出差: 263 }),
    );
    // 高铁 (149 segments) goes in; adding 报销 (236) would make 385 > 300, so the others only rank.
    expect(plan?.match).toBe("'高铁'");
    expect(plan?.weights.map((w) => w.term)).toEqual(['高铁', '报销', '出差', '可以']);
    const small = planFulltext(['refund', 'policy'], stats(2_000, { refund: 12, policy: 90 }));
    expect(small?.match).toBe("'refund' | 'policy'");
  });

  it('weights rare terms above common ones (BM25 idf) and drops terms no segment has', () => {
    const plan = planFulltext(['rule', '500023', 'zzz'], stats(10_000, { rule: 4_000, '500023': 1 }));
    expect(plan?.weights).toEqual([
      { term: '500023', idf: idfOf(1, 10_000) },
      { term: 'rule', idf: idfOf(4_000, 10_000) },
    ]);
    expect(idfOf(1, 10_000)).toBeGreaterThan(5 * idfOf(4_000, 10_000));
    expect(plan?.match).toBe("'500023'");
    expect(planFulltext(['zzz'], stats(10_000, {}))).toBeNull();
  });

  it('asks for two terms together when every term is common, the least frequent pairs first', () => {
    const plan = planFulltext(
      ['employee', 'policy', 'travel', 'the'],
      stats(100_000, { employee: 3_000, policy: 5_000, travel: 2_000, the: 90_000 }),
    );
    // Estimates f(a)·f(b)/N: travel & employee 60, travel & policy 100, employee & policy 150;
    // the first two add up to 160, all three to 310, over the budget of 300.
    expect(plan?.match).toBe("('travel' & 'employee') | ('travel' & 'policy')");
    // One common term alone is still searched (the candidate cap bounds it).
    expect(planFulltext(['policy'], stats(100_000, { policy: 5_000 }))?.match).toBe("'policy'");
  });
});
