import type { AppModule, PlatformDeps } from '../../platform/module.ts';
import type { ChatHistoryModule } from '../chat-history/index.ts';
import type { ModelKeyModule } from '../model-key/index.ts';
import { wireActivation } from './activation-wiring.ts';
import { registerBehaviourRoutes } from './behaviour.routes.ts';
import { wireBehaviour } from './behaviour-wiring.ts';
import { createExtractionRepo } from './extraction.repo.ts';
import { createFieldRepo } from './field.repo.ts';
import { createFieldService } from './field.service.ts';
import { createProfileService } from './profile.service.ts';
import { createProfileExtraction } from './profile-extraction.command.ts';
import { createProfileValueRepo } from './profile-value.repo.ts';
import { registerReportRoutes } from './report.routes.ts';
import { wireReports } from './report-wiring.ts';
import { registerUserProfileRoutes } from './user-profile.routes.ts';

/**
 * User profiles of the customer-service scenes (docs/user-profiles.md): a scene's fields, its
 * customers' values and every change to them, and the AI extraction that fills fields from
 * conversations. The customers are chat history's, read from its tables (the schema is the shared
 * part of a module); the model is the agent of the scene's reply settings.
 */
export function createUserProfileModule(
  deps: PlatformDeps & {
    modelKey: ModelKeyModule;
    chatHistory: Pick<ChatHistoryModule, 'replySettingsOf' | 'replySender' | 'addSignedIngestRoute' | 'wecomClients'>;
    /** The database runs one statement at a time (EngineTraits): background work goes in short steps. */
    oneConnection: boolean;
  },
) {
  const { db, now } = deps;
  const fieldRepo = createFieldRepo(db);
  const valueRepo = createProfileValueRepo(db);
  const fields = createFieldService({ db, fields: fieldRepo, now });
  const profiles = createProfileService({ db, fields: fieldRepo, values: valueRepo, now });
  const extraction = createProfileExtraction({
    db,
    fields: fieldRepo,
    values: valueRepo,
    extractions: createExtractionRepo(db),
    replyOf: deps.chatHistory.replySettingsOf,
    modelKeys: deps.modelKey.modelKeys,
    gateway: deps.modelKey.gateway,
    now,
    log: deps.log,
  });
  const { behaviour, satisfaction, behaviourCatchUp, behaviourSchedule } = wireBehaviour({
    ...deps,
    values: valueRepo,
  });
  const { reports, reportSummary, schedule: reportSchedule } = wireReports(deps);
  const activationParts = wireActivation({ ...deps, fields: fieldRepo, values: valueRepo, profiles });
  const module: AppModule = {
    name: 'user-profile',
    routes: (app) => {
      registerUserProfileRoutes(app, { fields, profiles, extraction });
      activationParts.registerActivation(app);
      registerReportRoutes(app, reports);
      registerBehaviourRoutes(app, { behaviour, satisfaction });
    },
    workers: [activationParts.activationWorker],
    schedules: [
      activationParts.activationSweep,
      reportSchedule,
      behaviourSchedule,
      {
        name: 'profile-extraction-sweep',
        cron: '*/3 * * * *',
        run: async () => {
          await extraction.sweep();
        },
      },
    ],
  };
  return {
    module,
    fields,
    profiles,
    extraction,
    activation: activationParts.activation,
    activationSender: activationParts.activationSender,
    reports,
    reportSummary,
    behaviourCatchUp,
  };
}

export type UserProfileModule = ReturnType<typeof createUserProfileModule>;
