import type { AppModule, PlatformDeps } from '../../platform/module.ts';
import { createLedger } from './ledger.ts';

/**
 * Billing (docs/billing.md): the ledger of team balances, the only writer of `spaces.balance`.
 * A scheduled check compares every cached balance with the sum of its ledger and raises an alarm
 * (an error in the log) for any team where they differ.
 */
export function createBillingModule(deps: PlatformDeps) {
  const ledger = createLedger(deps);

  async function checkBalances() {
    const drift = await ledger.drift();
    for (const team of drift) {
      deps.log.error(
        { alarm: 'balance-drift', space: team.spaceId, balance: team.balance, ledger: team.ledger },
        'a team balance differs from the sum of its ledger',
      );
    }
  }

  const module: AppModule = {
    name: 'billing',
    routes: () => {},
    schedules: [{ name: 'billing-balance-check', cron: '*/15 * * * *', run: checkBalances }],
  };
  return { module, ledger, checkBalances };
}

export type BillingModule = ReturnType<typeof createBillingModule>;
export type { Ledger, Posting } from './ledger.ts';
