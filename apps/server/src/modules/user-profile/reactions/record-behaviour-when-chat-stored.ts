import type { Events } from '../../../platform/events.ts';
import type { BehaviourService } from '../behaviour.service.ts';
import type { SatisfactionService } from '../satisfaction.service.ts';

/**
 * When chat history stored messages (`chat.stored`): the behaviour events they carry are recorded
 * for their customers, an ended WeCom session is asked for satisfaction and a menu tap answers it.
 * What this misses (a crash between the store and the reaction) the behaviour catch-up finds.
 */
export function recordBehaviourWhenChatStored(
  events: Events,
  deps: { behaviour: BehaviourService; satisfaction: SatisfactionService },
) {
  events.react('chat.stored', {
    name: 'record-behaviour-when-chat-stored',
    async run(stored) {
      const derived = await deps.behaviour.derive(stored);
      await deps.satisfaction.onDerived({ spaceId: stored.spaceId, sceneId: stored.sceneId }, derived);
    },
  });
}
