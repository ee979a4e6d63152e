import type { Channel } from './events.ts';

/**
 * The live streams of one broadcast channel, by scope (a team, a team's scene): every process
 * pushes each message to the streams open on it for the message's scope. Behind the chat list's
 * and the fees page's live updates.
 */
export function createLiveFeed<P>(channel: Channel<P>, scopeOf: (payload: P) => string) {
  const followers = new Map<string, Set<(payload: P) => void>>();
  channel.receive((payload) => {
    for (const push of followers.get(scopeOf(payload)) ?? []) push(payload);
  });
  return {
    tell: (payload: P) => channel.send(payload),
    /** Calls `push` for every message in the scope until the returned function is called. */
    follow(scope: string, push: (payload: P) => void) {
      const pushes = followers.get(scope) ?? new Set();
      pushes.add(push);
      followers.set(scope, pushes);
      return () => {
        pushes.delete(push);
        if (pushes.size === 0 && followers.get(scope) === pushes) followers.delete(scope);
      };
    },
  };
}
