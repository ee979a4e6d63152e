import type { FastifyBaseLogger } from 'fastify';
import { type NoticeOut, noticeOnTerminal } from '../terminal-notice.ts';
import type { SmsProvider } from './sms-provider.ts';

/**
 * Offline provider: the code goes to the server log instead of a phone, and, when the server runs
 * in a terminal, also as a plain line that a person signing in on a fresh install can read.
 */
export function createDevSmsProvider(log: FastifyBaseLogger, out?: NoticeOut): SmsProvider {
  return {
    name: 'dev',
    async sendCode(phone, code) {
      log.info({ phone }, `SMS code for ${phone}: ${code}`);
      noticeOnTerminal(`\n  SMS code for ${phone}: ${code}   (dev SMS provider: no message is sent)\n`, out);
    },
  };
}
