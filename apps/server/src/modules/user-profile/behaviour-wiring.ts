import { BEHAVIOUR_PUSH_SUFFIX } from '@athena/contract';
import type { PlatformDeps, ScheduledJob } from '../../platform/module.ts';
import type { ChatHistoryModule } from '../chat-history/index.ts';
import { createBehaviourService } from './behaviour.service.ts';
import { createBehaviourCatchUp } from './behaviour-catchup.job.ts';
import type { ProfileValueRepo } from './profile-value.repo.ts';
import { recordBehaviourWhenChatStored } from './reactions/record-behaviour-when-chat-stored.ts';
import { createSatisfactionService } from './satisfaction.service.ts';

/**
 * Behaviour data and satisfaction, hooked to chat history (docs/user-profiles.md): what it stores
 * is turned into behaviour events (and ended sessions are asked, menu taps answer), and channels
 * push events under the scene's ingest URL, signed with its secret.
 */
export function wireBehaviour(
  deps: PlatformDeps & {
    values: ProfileValueRepo;
    chatHistory: Pick<ChatHistoryModule, 'replySettingsOf' | 'addSignedIngestRoute' | 'wecomClients'>;
    oneConnection: boolean;
  },
) {
  const behaviour = createBehaviourService({ db: deps.db, values: deps.values });
  const satisfaction = createSatisfactionService({
    db: deps.db,
    values: deps.values,
    chatHistory: deps.chatHistory,
    now: deps.now,
    log: deps.log,
  });
  recordBehaviourWhenChatStored(deps.events, { behaviour, satisfaction });
  deps.chatHistory.addSignedIngestRoute({
    suffix: BEHAVIOUR_PUSH_SUFFIX,
    handle: (scene, raw) => behaviour.push(scene, raw),
  });
  // What the listener missed (a crash between storing and deriving, a failed listener): every
  // minute, once across processes. Most messages are not events, so a step covers many ids; fewer
  // where the database runs one statement at a time, shared with requests.
  const behaviourCatchUp = createBehaviourCatchUp({
    db: deps.db,
    behaviour,
    satisfaction,
    span: deps.oneConnection ? 20_000 : 200_000,
  });
  const behaviourSchedule: ScheduledJob = {
    name: 'profile-behaviour-catchup',
    cron: '* * * * *',
    run: () => behaviourCatchUp.catchUp({ maxSteps: 50 }),
  };
  return { behaviour, satisfaction, behaviourCatchUp, behaviourSchedule };
}
