import type { FastifyBaseLogger } from 'fastify';
import type { SmsProvider } from './sms-provider.ts';

/** Offline provider: the code goes to the server log instead of a phone. */
export function createDevSmsProvider(log: FastifyBaseLogger): SmsProvider {
  return {
    name: 'dev',
    async sendCode(phone, code) {
      log.info({ phone }, `SMS code for ${phone}: ${code}`);
    },
  };
}
