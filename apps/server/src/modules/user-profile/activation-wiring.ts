import type { FastifyInstance } from 'fastify';
import type { PlatformDeps, ScheduledJob } from '../../platform/module.ts';
import type { ChatHistoryModule } from '../chat-history/index.ts';
import type { ModelKeyModule } from '../model-key/index.ts';
import { createActivationRepo } from './activation.repo.ts';
import { registerActivationRoutes } from './activation.routes.ts';
import { createActivationService } from './activation.service.ts';
import { createActivationSender } from './activation-sender.ts';
import { createActivationTemplateService } from './activation-template.service.ts';
import { createActivationWriter } from './activation-writer.ts';
import type { FieldRepo } from './field.repo.ts';
import type { ProfileService } from './profile.service.ts';
import type { ProfileValueRepo } from './profile-value.repo.ts';

/**
 * Activation events (docs/user-profiles.md, Activation events), built from the module's parts: the
 * messages are sent through chat history's reply sender, the agent mode through the gateway.
 */
export function wireActivation(
  deps: PlatformDeps & {
    modelKey: ModelKeyModule;
    chatHistory: Pick<ChatHistoryModule, 'replySettingsOf' | 'replySender'>;
    fields: FieldRepo;
    values: ProfileValueRepo;
    profiles: ProfileService;
  },
) {
  const { db, now, fields, values } = deps;
  const repo = createActivationRepo(db);
  const writer = createActivationWriter({
    db,
    fields,
    values,
    replyOf: deps.chatHistory.replySettingsOf,
    modelKeys: deps.modelKey.modelKeys,
    gateway: deps.modelKey.gateway,
  });
  const sender = createActivationSender({ db, writer, replies: deps.chatHistory.replySender, now, log: deps.log });
  const templates = createActivationTemplateService({ repo, fields, values, writer, now });
  const activation = createActivationService({
    db,
    repo,
    fields,
    values,
    profiles: deps.profiles,
    writer,
    sender,
    now,
  });
  const sweep: ScheduledJob = {
    // Due events whose job was lost (a restart) and retries that came due; pg-boss runs it once.
    name: 'profile-activation-sweep',
    cron: '* * * * *',
    run: () => sender.runDue(),
  };
  return {
    activation,
    activationSender: sender,
    activationWorker: sender.worker,
    activationSweep: sweep,
    registerActivation: (app: FastifyInstance) => registerActivationRoutes(app, { templates, events: activation }),
  };
}
