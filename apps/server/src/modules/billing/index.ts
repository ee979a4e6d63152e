import type { Config } from '../../config.ts';
import type { AppModule, PlatformDeps } from '../../platform/module.ts';
// The type from its file: team's front door imports billing's, and a cycle of types is still one.
import type { AuditRepo } from '../team/audit.repo.ts';
import { createBalanceService } from './balance.service.ts';
import { registerBillingRoutes } from './billing.routes.ts';
import { createBillingNews } from './billing-news.ts';
import { createLedger } from './ledger.ts';
import { createOperatorService } from './operator.service.ts';
import { createOperatorCheck } from './operators.ts';
import { paymentProvidersFrom } from './payment-providers.ts';
import { createPlatformModelService } from './platform-models.service.ts';
import { createRechargeRepo } from './recharge.repo.ts';
import { createRechargeService } from './recharge.service.ts';
import { createSettlement } from './settlement.ts';
import { registerUsageRoutes } from './usage.routes.ts';
import { createUsageCharging } from './usage-charging.ts';
import { createUsageRecordsService } from './usage-records.service.ts';

/**
 * Billing (docs/billing.md): the ledger of team balances (the only writer of `spaces.balance`),
 * recharge orders paid through the configured payment channels, the platform's priced models and
 * the charging of their calls, fee records, and operators' refunds and adjustments.
 * Scheduled: a check that every cached balance is the sum of its ledger (an alarm in the log when
 * not), the reconciliation of orders whose payment notice has not arrived, and expired holds.
 */
export function createBillingModule(
  deps: PlatformDeps & {
    config: Config;
    publicUrl: string;
    masterKey: Buffer;
    /** The embedded database belongs to one process: holds left at its start are from a crash. */
    soleProcess: boolean;
    /** The team's audit log: recharges, refunds, adjustments and settings are recorded in it. */
    audit: AuditRepo;
  },
) {
  const { db, log } = deps;
  const news = createBillingNews(deps);
  const ledger = createLedger({ db, news });
  const repo = createRechargeRepo(db);
  const operators = createOperatorCheck(db, deps.config.OPERATOR_PHONES);
  const { providers, devCashier } = paymentProvidersFrom(deps.config, deps);
  const settlement = createSettlement({ ...deps, ledger, repo, news, providers });
  const recharge = createRechargeService({ ...deps, repo, settlement, news, providers, devCashier });
  const balance = createBalanceService({ db, audit: deps.audit, channels: [...providers.keys()], now: deps.now });
  const usageCharging = createUsageCharging({ db, ledger, news, now: deps.now });
  const platformModels = createPlatformModelService({ ...deps, operators });
  const usage = createUsageRecordsService(deps);
  const operator = createOperatorService({ ...deps, ledger, repo, news, operators, providers });

  async function checkBalances() {
    const drift = await ledger.drift();
    for (const team of drift) {
      log.error(
        { alarm: 'balance-drift', space: team.spaceId, balance: team.balance, ledger: team.ledger },
        'a team balance differs from the sum of its ledger',
      );
    }
  }

  const module: AppModule = {
    name: 'billing',
    routes: async (app) => {
      // Every live stream ends after CHAT_LIVE_SECONDS, so a removed member's stream ends too.
      const liveSeconds = deps.config.CHAT_LIVE_SECONDS;
      await registerBillingRoutes(app, { balance, recharge, settlement, news, liveSeconds });
      registerUsageRoutes(app, { usage, platformModels, operator });
    },
    onStart: async () => {
      if (devCashier) log.warn('the dev cashier is on: anyone can "pay" recharges (PAYMENT_CHANNELS)');
      if (deps.soleProcess) await usageCharging.dropAllHolds();
    },
    schedules: [
      { name: 'billing-balance-check', cron: '*/15 * * * *', run: checkBalances },
      { name: 'billing-reconcile-orders', cron: '* * * * *', run: async () => void (await settlement.reconcile()) },
      { name: 'billing-expire-holds', cron: '*/5 * * * *', run: usageCharging.dropExpiredHolds },
    ],
  };
  return {
    module,
    ledger,
    checkBalances,
    settlement,
    recharge,
    /** Null unless PAYMENT_CHANNELS offers it. */
    devCashier,
    /** For the model gateway: charges platform-model calls. */
    charging: usageCharging.charging,
    /** For model resolution: a platform model by id, priced. */
    resolvePlatformModel: platformModels.resolve,
    /** The enabled platform models' ids (model choices). */
    platformModelIds: platformModels.enabledIds,
  };
}

export type BillingModule = ReturnType<typeof createBillingModule>;
export type { Ledger, Posting } from './ledger.ts';
