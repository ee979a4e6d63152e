import { randomUUID } from 'node:crypto';
import type { RealName } from '@athena/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { InvalidationBus } from '../../platform/cache.ts';
import { encryptSecret } from '../../platform/crypto.ts';
import { AppError } from '../../platform/http/app-error.ts';
import { type DevRealNameOutcome, isDevRealNameProvider } from '../../platform/realname/dev-realname.ts';
import type { RealNameProvider, RealNameResult } from '../../platform/realname/realname-provider.ts';
import type { RealNameRepo, RealNameRow } from './realname.repo.ts';

export type RealNameService = ReturnType<typeof createRealNameService>;

/** Where the vendor sends the person after the face check (the web app's verification page). */
export const REAL_NAME_RETURN_PATH = '/account/faceid';

const PROVIDER_CHANGED_REASON = 'This check was started with another verification service. Please start again.';

/** 张三 → 张*, 欧阳娜娜 → 欧***; a one-character name shows nothing. Counts code points, not UTF-16 units. */
export function maskName(name: string) {
  const chars = Array.from(name);
  return chars.length <= 1 ? '*' : chars[0] + '*'.repeat(chars.length - 1);
}

/** 11010519491231002X → 110***********002X: region prefix and the last four only. */
export const maskIdNumber = (idNumber: string) => `${idNumber.slice(0, 3)}${'*'.repeat(11)}${idNumber.slice(-4)}`;

const UNVERIFIED: RealName = {
  state: 'unverified',
  name_masked: null,
  id_number_masked: null,
  failure_reason: null,
  verified_at: null,
};

function view(row: RealNameRow | undefined): RealName {
  if (!row) return UNVERIFIED;
  const state = row.state === 'verified' || row.state === 'failed' ? row.state : 'pending';
  return {
    state,
    name_masked: row.nameMasked,
    id_number_masked: row.idNumberMasked,
    failure_reason: state === 'failed' ? row.failureReason : null,
    verified_at: state === 'verified' && row.completedAt ? row.completedAt.toISOString() : null,
  };
}

export function createRealNameService(deps: {
  repo: RealNameRepo;
  provider: RealNameProvider;
  masterKey: Buffer;
  publicUrl: string;
  bus: InvalidationBus;
  now: () => Date;
  log: FastifyBaseLogger;
}) {
  const { repo, provider, bus, now, log } = deps;
  const returnUrl = `${deps.publicUrl.replace(/\/+$/, '')}${REAL_NAME_RETURN_PATH}`;

  /** Provider faults become one localised error; the log gets the vendor's code, never identity data. */
  async function ask<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      log.warn({ err: error, provider: provider.name }, `real-name provider failed to ${what}`);
      throw new AppError('REAL_NAME_PROVIDER_FAILED');
    }
  }

  /** Asks the provider about a pending attempt and records a final answer. */
  async function settle(row: RealNameRow): Promise<RealName> {
    if (row.state !== 'pending') return view(row);
    const result: RealNameResult =
      row.provider === provider.name
        ? await ask('report a result', () => provider.result(row.providerToken))
        : { state: 'failed', reason: PROVIDER_CHANGED_REASON };
    if (result.state === 'pending') return view(row);

    const completed = await repo.complete(row.id, {
      state: result.state,
      failureReason: result.state === 'failed' ? (result.reason ?? null) : null,
      completedAt: now(),
    });
    // Another request recorded it first (or a new start replaced it): show what is stored now.
    if (!completed) return view(await repo.latest(row.userId));
    if (completed.state === 'verified') {
      // user/info's real_name_verified is cached under this key.
      await bus.publish(`user:${row.userId}`);
      log.info({ userId: row.userId, attemptId: row.id }, 'real-name verification passed');
    }
    return view(completed);
  }

  return {
    get: async (userId: string) => view(await repo.latest(userId)),

    async start(userId: string, person: { name: string; idNumber: string }) {
      if (await repo.isVerified(userId)) throw new AppError('REAL_NAME_ALREADY_VERIFIED');
      const attemptId = randomUUID();
      const opened = await ask('start a check', () =>
        provider.start({ attemptId, name: person.name, idNumber: person.idNumber, redirectUrl: returnUrl }),
      );
      const stored = await repo.replaceOpenAttempt({
        id: attemptId,
        userId,
        state: 'pending',
        provider: provider.name,
        providerToken: opened.token,
        nameEncrypted: encryptSecret(deps.masterKey, person.name),
        idNumberEncrypted: encryptSecret(deps.masterKey, person.idNumber),
        nameMasked: maskName(person.name),
        idNumberMasked: maskIdNumber(person.idNumber),
      });
      if (!stored) throw new AppError('REAL_NAME_ALREADY_VERIFIED');
      return { verify_url: opened.url, state: 'pending' as const };
    },

    async refresh(userId: string) {
      const row = await repo.latest(userId);
      return row ? settle(row) : UNVERIFIED;
    },

    /** Dev provider only: the simulated face-check page reports its outcome for the caller's own check. */
    async devComplete(userId: string, token: string, outcome: DevRealNameOutcome) {
      if (!isDevRealNameProvider(provider)) throw new AppError('ROUTE_NOT_FOUND');
      const row = await repo.findByToken(userId, token);
      if (row?.state !== 'pending' || row.provider !== 'dev') throw new AppError('NOT_FOUND');
      provider.complete(token, outcome);
      return settle(row);
    },
  };
}
