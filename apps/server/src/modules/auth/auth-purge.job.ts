import type { FastifyBaseLogger } from 'fastify';
import type { ScheduledJob } from '../../platform/module.ts';
import type { SessionService } from './session.service.ts';
import type { SmsCodeService } from './sms-code.service.ts';
import type { WechatLoginService } from './wechat-login.service.ts';

/** Hourly: removes dead sessions, old SMS codes and expired WeChat QR codes and bind tokens. */
export function authPurgeJob(
  deps: { sessions: SessionService; smsCodes: SmsCodeService; wechat: WechatLoginService },
  log: FastifyBaseLogger,
): ScheduledJob {
  return {
    name: 'auth-purge',
    cron: '17 * * * *',
    async run() {
      const removed = {
        sessions: await deps.sessions.purge(),
        smsCodes: await deps.smsCodes.purge(),
        wechat: await deps.wechat.purge(),
      };
      log.info({ removed }, 'purged expired sign-in records');
    },
  };
}
