import { randomBytes } from 'node:crypto';
import type { RealNameProvider, RealNameResult } from './realname-provider.ts';

export type DevRealNameOutcome = 'pass' | 'fail';

export interface DevRealNameProvider extends RealNameProvider {
  readonly name: 'dev';
  /** What the simulated face-check page reports (through realname/dev_complete). */
  complete(token: string, outcome: DevRealNameOutcome): void;
}

export const DEV_FAILURE_REASON = 'The simulated face check was declined.';

/**
 * Offline provider: the "face check" is our own page, /dev/faceid/<token>, where a person chooses
 * pass or fail. Outcomes live in this process's memory, which is enough for a demo or a single
 * process; after a restart an open check simply stays pending until the person starts again.
 */
export function createDevRealNameProvider(publicUrl: string): DevRealNameProvider {
  const outcomes = new Map<string, DevRealNameOutcome>();
  const base = publicUrl.replace(/\/+$/, '');
  return {
    name: 'dev',
    async start() {
      const token = randomBytes(18).toString('base64url');
      return { token, url: `${base}/dev/faceid/${token}` };
    },
    async result(token): Promise<RealNameResult> {
      const outcome = outcomes.get(token);
      if (outcome === 'pass') return { state: 'verified' };
      if (outcome === 'fail') return { state: 'failed', reason: DEV_FAILURE_REASON };
      return { state: 'pending' };
    },
    complete(token, outcome) {
      outcomes.set(token, outcome);
    },
  };
}

export const isDevRealNameProvider = (provider: RealNameProvider): provider is DevRealNameProvider =>
  provider.name === 'dev' && 'complete' in provider;
