import { type SpaceSummary, spaceRoutes } from '@athena/contract';
import { api } from '../../lib/api-client.ts';
import { queryClient } from '../../lib/query-client.ts';
import { STORAGE_KEYS } from '../../lib/storage-keys.ts';
import { useUserStore } from '../../stores/user-store.ts';

/**
 * Makes `id` the current space: remembered on the server (space/select), mirrored into the user
 * store (so the header switcher and the dashboard follow) and every cached answer refreshed.
 */
export async function switchToSpace(id: string): Promise<SpaceSummary> {
  const space = await api(spaceRoutes.select, { selected_space_id: id });
  useUserStore.getState().setTeam(space);
  // Queries keyed to another space (space/get, team lists) stay untouched: the page may still show
  // the one just left or dissolved, and refetching it would answer 16023 and reload the app.
  await queryClient.invalidateQueries({ predicate: (query) => !isOtherSpaceQuery(query.queryKey, space.id) });
  return space;
}

/** ['space', id] (space/get) and ['team', id, …] belong to one space. */
export function isOtherSpaceQuery(queryKey: readonly unknown[], spaceId: string): boolean {
  const [kind, id] = queryKey;
  return (kind === 'space' || kind === 'team') && id !== spaceId;
}

/**
 * After leaving or dissolving the current team: its id must not travel as `space-id` any more
 * (the server would answer 16023), so forget it first, then move to the personal space (or the
 * first one left).
 */
export async function switchToFallbackSpace(): Promise<SpaceSummary | null> {
  localStorage.removeItem(STORAGE_KEYS.spaceId);
  const { items } = await api(spaceRoutes.list);
  const next = items.find((space) => space.personal) ?? items[0];
  if (!next) {
    window.location.assign('/');
    return null;
  }
  return switchToSpace(next.id);
}
