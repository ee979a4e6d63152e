import { randomBytes } from 'node:crypto';
import { billingRoutes, PAYMENT_NOTIFY_PATH_PREFIX, type RechargeOrder } from '@athena/contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type AthenaProcess, startAthena } from '../testing/athena-process.ts';
import { type FakeWechatPay, startFakeWechatPay } from '../testing/fake-wechat-pay.ts';
import { API } from './two-processes.ts';

const AMOUNT = 2_500;

/**
 * The crash case of docs/billing.md ("Exactly once"), with a real process and a real kill -9: a
 * server that received WeChat Pay's "paid" notification is killed while its settle step waits for
 * the order's row lock, before it could commit the credit. Nothing may be credited then, and after
 * a restart the reconciliation job and WeChat Pay's retry together must credit the payment exactly
 * once. No test-only hook in the server: the test holds the order's row lock from its own
 * connection, so the process is provably between the notification and the credit when it dies.
 * The two `it`s run in order on one order.
 */
describe('a server killed with SIGKILL between a payment notification and its credit', () => {
  let sql: pg.Client;
  let wechat: FakeWechatPay;
  let env: Record<string, string>;
  let doomed: AthenaProcess;
  let restarted: AthenaProcess | undefined;
  let creator: string;
  let teamId: string;
  let order: RechargeOrder;

  const rows = async <T>(text: string, values: unknown[] = []) => (await sql.query(text, values)).rows as T[];
  const credits = () =>
    rows<{ kind: string; amount: string }>('select kind, amount from ledger_entries where idempotency_key = $1', [
      `recharge:${order.order_no}`,
    ]);
  const orderStatus = async () =>
    (await rows<{ status: string }>('select status from recharge_orders where id = $1', [order.id]))[0].status;
  /** The team's balance, checked against the sum of its ledger (the invariant of docs/billing.md). */
  const balance = async () => {
    const [totals] = await rows<{ balance: string; ledger: string }>(
      `select s.balance, (select coalesce(sum(amount), 0) from ledger_entries where space_id = s.id) as ledger
       from spaces s where s.id = $1`,
      [teamId],
    );
    expect(totals.ledger).toBe(totals.balance);
    return Number(totals.balance);
  };

  beforeAll(async () => {
    // A database of its own on the tier's PostgreSQL server, and WeChat Pay's local fake.
    const adminUrl = inject('postgresAdminUrl');
    const name = `athena_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const databaseUrl = adminUrl.replace(/\/postgres$/, `/${name}`);
    sql = new pg.Client({ connectionString: databaseUrl });
    await sql.connect();
    wechat = await startFakeWechatPay();
    env = {
      DATABASE_URL: databaseUrl,
      // The same key for both processes, so the session made on the first works on the second.
      ATHENA_MASTER_KEY: randomBytes(32).toString('base64'),
      PAYMENT_CHANNELS: 'wechat',
      WECHAT_PAY_API_BASE: wechat.url,
      WECHAT_PAY_MCH_ID: wechat.mchId,
      WECHAT_PAY_APP_ID: wechat.appId,
      WECHAT_PAY_SERIAL_NO: wechat.merchantSerialNo,
      WECHAT_PAY_PRIVATE_KEY: wechat.merchantPrivateKeyPem,
      WECHAT_PAY_API_V3_KEY: wechat.apiV3Key,
      WECHAT_PAY_PUBLIC_KEY_ID: wechat.platformKeys.publicKeyId,
      WECHAT_PAY_PUBLIC_KEY: wechat.platformKeys.publicKeyPem,
    };
    doomed = await startAthena('doomed', env);
    creator = await doomed.signIn('13900000081');
    teamId = (await doomed.call<{ id: string }>(`${API}/team/create`, { name: 'Crash' }, { token: creator })).data.id;
  });
  afterAll(async () => {
    // The doomed process is already dead unless the first test failed before killing it.
    await doomed?.stop('SIGKILL');
    if (restarted) expect(await restarted.stop()).toBe(0);
    await sql?.end();
    await wechat?.close();
  });

  it('credits nothing when the process dies while its settle step waits for the order row', async () => {
    const created = await doomed.call<RechargeOrder>(
      billingRoutes.rechargeCreate.path,
      { amount: AMOUNT, channel: 'wechat' },
      { token: creator, 'space-id': teamId },
    );
    expect(created.code, JSON.stringify(created)).toBe(0);
    order = created.data;
    expect(order.status).toBe('paying');

    // Our own transaction holds the order's row, so the server's settle step (which locks it first
    // thing) waits there: the notification is received and verified, the credit not yet committed.
    const locker = new pg.Client({ connectionString: env.DATABASE_URL });
    await locker.connect();
    const lockerPid = (await locker.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid;
    await locker.query('begin');
    await locker.query('select id from recharge_orders where out_trade_no = $1 for update', [order.order_no]);

    // The payer pays: WeChat Pay marks the order paid and posts the signed notification to the server.
    const delivery = wechat.pay(order.order_no).then(
      (status) => ({ status }),
      (error: Error) => ({ error }),
    );
    // Provably stuck between notification and credit: a server backend waits on our lock, and it is
    // the settle step's `select … for update` of the order.
    const blocked = async () =>
      rows<{ pid: number; query: string }>(
        'select pid, query from pg_stat_activity where $1 = any(pg_blocking_pids(pid))',
        [lockerPid],
      );
    await expect.poll(async () => (await blocked()).length, { timeout: 15_000, interval: 50 }).toBe(1);
    const [waiting] = await blocked();
    expect(waiting.query).toMatch(/from "recharge_orders".* for update/);

    // kill -9: no shutdown hook, no rollback, no answer to WeChat Pay.
    expect(await doomed.stop('SIGKILL')).toBeNull();
    const delivered = await delivery;
    expect('error' in delivered, 'WeChat Pay got no answer, so it will send the notification again').toBe(true);

    // Let go of the row. The dead server's backend gets the lock, finds its client gone and ends:
    // its transaction never commits.
    await locker.query('rollback');
    await locker.end();
    await expect
      .poll(async () => (await rows('select 1 from pg_stat_activity where pid = $1', [waiting.pid])).length, {
        timeout: 10_000,
        interval: 50,
      })
      .toBe(0);

    // The money arrived at WeChat Pay, and nothing of it here yet.
    expect(wechat.orders.get(order.order_no)?.tradeState).toBe('SUCCESS');
    expect(await credits()).toEqual([]);
    expect(await orderStatus()).toBe('paying');
    expect(await balance()).toBe(0);
  });

  it('after a restart, reconciliation credits the payment exactly once and the retried notification changes nothing', async () => {
    restarted = await startAthena('restarted', env);

    // The job leaves orders younger than a minute to their notification; the crash was "a while
    // ago". Then one occurrence of the every-minute `billing-reconcile-orders` schedule, sent now
    // (as pg-boss's scheduler sends it) rather than waiting up to a minute for the next one.
    await sql.query(`update recharge_orders set created_at = created_at - interval '2 minutes' where id = $1`, [
      order.id,
    ]);
    const [job] = await rows<{ id: string }>(
      `insert into pgboss.job (name, data, policy)
       select name, '{}'::jsonb, policy from pgboss.queue where name = 'billing-reconcile-orders' returning id`,
    );
    expect(job, 'the reconciliation queue exists').toBeDefined();
    await expect.poll(orderStatus, { timeout: 20_000, interval: 100 }).toBe('paid');
    const jobState = async () =>
      (await rows<{ state: string }>('select state from pgboss.job where id = $1', [job.id]))[0].state;
    await expect.poll(jobState, { timeout: 10_000, interval: 100 }).toBe('completed');
    // Credited by the job: only reconciliation notes when it asked WeChat Pay about an order.
    const [{ checked_at }] = await rows<{ checked_at: Date | null }>(
      'select checked_at from recharge_orders where id = $1',
      [order.id],
    );
    expect(checked_at).not.toBeNull();
    expect(await credits()).toEqual([{ kind: 'recharge', amount: String(AMOUNT) }]);
    expect(await balance()).toBe(AMOUNT);

    // WeChat Pay's retry of the unanswered notification, now to the restarted server: acknowledged
    // (an empty 200, so it stops retrying) and not credited again.
    const retry = wechat.buildNotice(order.order_no);
    expect(await wechat.deliver(retry, `${restarted.url}${PAYMENT_NOTIFY_PATH_PREFIX}wechat`)).toBe(200);
    expect(await credits()).toHaveLength(1);
    expect(await balance()).toBe(AMOUNT);
    const seen = await restarted.call<RechargeOrder>(
      billingRoutes.rechargeGet.path,
      { id: order.id },
      { token: creator, 'space-id': teamId },
    );
    expect(seen.data).toMatchObject({ status: 'paid', amount: AMOUNT });
  });
});
