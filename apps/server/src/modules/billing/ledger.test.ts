import { teamRoutes } from '@athena/contract';
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../platform/db/sql.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { spaces } from '../space/space.schema.ts';
import type { Posting } from './index.ts';
import { ledgerEntries } from './ledger.schema.ts';

describe('the ledger of team balances', () => {
  let t: TestApp;
  let owner: string;
  const ledger = () => t.app.modules.billing.ledger;
  const newTeam = async (name: string) =>
    (await t.call(teamRoutes.create, { name }, { token: owner })).body.data.id as string;
  const balanceOf = async (spaceId: string) =>
    (await t.database.db.select({ balance: spaces.balance }).from(spaces).where(eq(spaces.id, spaceId)))[0].balance;
  const entriesOf = (spaceId: string) =>
    t.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.spaceId, spaceId)).orderBy(ledgerEntries.id);
  /** Each entry's balance_after is the one before it plus its amount, from zero, and never below zero. */
  const expectConsistent = async (spaceId: string) => {
    let running = 0;
    for (const entry of await entriesOf(spaceId)) {
      running += entry.amount;
      expect(entry.balanceAfter).toBe(running);
      expect(entry.balanceAfter).toBeGreaterThanOrEqual(0);
    }
    expect(await balanceOf(spaceId)).toBe(running);
  };

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.signInBySms('13300000001');
  });
  afterAll(() => t.close());

  it('posts each key once, keeps the balance with its entries, and refuses to go below zero', async () => {
    const team = await newTeam('账本');
    const recharge: Posting = { spaceId: team, kind: 'recharge', amount: 10_000, idempotencyKey: `recharge:${team}:1` };
    expect((await ledger().post(recharge)).posted).toBe(true);
    // The same notification twice: one credit.
    const again = await ledger().post(recharge);
    expect(again).toMatchObject({ posted: false, entry: { amount: 10_000, balanceAfter: 10_000 } });
    await ledger().post({ spaceId: team, kind: 'usage', amount: -2_345, idempotencyKey: `usage:${team}:1` });
    expect(await balanceOf(team)).toBe(7_655);

    // More than there is: refused with both amounts, and nothing written.
    const refused = await ledger()
      .post({ spaceId: team, kind: 'usage', amount: -7_656, idempotencyKey: `usage:${team}:2` })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ key: 'BALANCE_INSUFFICIENT', params: { balance: '¥76.55', amount: '¥76.56' } });
    expect(await balanceOf(team)).toBe(7_655);
    expect(await entriesOf(team)).toHaveLength(2);

    // A key reused for another change is a mistake of the caller, not a duplicate.
    await expect(ledger().post({ ...recharge, amount: 1 })).rejects.toThrow(/posted for another change/);
    for (const amount of [0, 1.5, Number.NaN, 2 ** 60]) {
      await expect(ledger().post({ ...recharge, idempotencyKey: `odd:${amount}`, amount })).rejects.toThrow(/whole/);
    }
    await expectConsistent(team);
    expect(await ledger().drift()).toEqual([]);
  });

  it('loses no fen when many postings on one team run at once', async () => {
    const team = await newTeam('并发');
    await ledger().post({ spaceId: team, kind: 'recharge', amount: 50_000, idempotencyKey: `recharge:${team}` });
    const postings: Posting[] = [];
    for (let i = 0; i < 200; i++) {
      // Every tenth one is sent twice, as a retried notification is.
      if (i % 10 === 1) {
        postings.push({ ...postings[i - 1] });
        continue;
      }
      const credit = i % 4 === 0;
      postings.push({
        spaceId: team,
        kind: credit ? 'recharge' : 'usage',
        amount: credit ? 300 : -(100 + (i % 7)),
        idempotencyKey: `${team}:${i}`,
      });
    }
    const results = await Promise.allSettled(postings.map((posting) => ledger().post(posting)));
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    const posted = new Map<string, number>();
    for (const posting of postings) posted.set(posting.idempotencyKey, posting.amount);
    const expected = 50_000 + [...posted.values()].reduce((sum, amount) => sum + amount, 0);
    expect(await balanceOf(team)).toBe(expected);
    await expectConsistent(team);
  });

  it('keeps balance = Σ ledger and never goes below zero, whatever the interleaving (property)', async () => {
    const team = await newTeam('性质');
    const kinds = ['recharge', 'usage', 'refund', 'adjustment'] as const;
    const operation = fc.record({
      kind: fc.constantFrom(...kinds),
      amount: fc.integer({ min: 1, max: 50_000 }),
      // A small key space: many operations repeat an earlier one, as retried notifications do.
      key: fc.integer({ min: 0, max: 60 }),
      sign: fc.boolean(),
    });
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(operation, { minLength: 1, maxLength: 8 }), { maxLength: 6 }),
        async (batches) => {
          round += 1;
          for (const batch of batches) {
            // A batch runs at once: postings race for the team's row.
            await Promise.allSettled(
              batch.map((op) => {
                const credit = op.kind === 'recharge' || (op.kind === 'adjustment' && op.sign);
                return ledger().post({
                  spaceId: team,
                  kind: op.kind,
                  amount: credit ? op.amount : -op.amount,
                  idempotencyKey: `${team}:${round}:${op.kind}:${op.key}:${op.amount}:${credit}`,
                });
              }),
            );
          }
          const [sums] = rowsOf<{ total: string | number | null }>(
            await t.database.db.execute(
              sql`select sum(amount) as total from ledger_entries where space_id = ${team}::uuid`,
            ),
          );
          expect(await balanceOf(team)).toBe(Number(sums.total ?? 0));
          const [lowest] = rowsOf<{ low: string | number | null }>(
            await t.database.db.execute(
              sql`select min(balance_after) as low from ledger_entries where space_id = ${team}::uuid`,
            ),
          );
          expect(Number(lowest.low ?? 0)).toBeGreaterThanOrEqual(0);
        },
      ),
      { numRuns: 25 },
    );
    await expectConsistent(team);
  });

  it('reports a balance written around the ledger as drift, and the dissolve forfeits through it', async () => {
    const team = await newTeam('漂移');
    await ledger().post({ spaceId: team, kind: 'recharge', amount: 1_234, idempotencyKey: `recharge:${team}` });
    await t.database.db.update(spaces).set({ balance: 1_300 }).where(eq(spaces.id, team));
    expect(await ledger().drift()).toEqual([{ spaceId: team, balance: 1_300, ledger: 1_234 }]);
    await t.database.db.update(spaces).set({ balance: 1_234 }).where(eq(spaces.id, team));
    await t.app.platform.bus.publish(`space:${team}`);
    expect(await ledger().drift()).toEqual([]);

    const dissolved = await t.call(
      teamRoutes.dissolve,
      { confirm_name: '漂移', forfeit_balance: true },
      { token: owner, 'space-id': team },
    );
    expect(dissolved.body.code).toBe(0);
    expect(await balanceOf(team)).toBe(0);
    const [, forfeit] = await entriesOf(team);
    expect(forfeit).toMatchObject({
      kind: 'forfeit',
      amount: -1_234,
      balanceAfter: 0,
      idempotencyKey: `forfeit:${team}`,
    });
    expect(await ledger().drift()).toEqual([]);
  });
});
