import { STORAGE_KEYS } from '../../lib/storage-keys.ts';

/**
 * Runs before /invite/:code renders (and so before user/info). A remembered space the person has
 * since been removed from would make user/info answer 16023, and the API client would reload to
 * `/` — losing the invitation. Without a `space-id` the server answers with the person's last
 * valid space, which the app then remembers again.
 */
export function inviteLoader() {
  localStorage.removeItem(STORAGE_KEYS.spaceId);
  return null;
}
