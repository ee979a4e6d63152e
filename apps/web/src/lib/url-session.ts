import { STORAGE_KEYS } from './storage-keys.ts';

const PARAMS = [
  ['token', STORAGE_KEYS.token],
  ['spaceId', STORAGE_KEYS.spaceId],
] as const;

/**
 * `token` and `spaceId` may arrive in any URL's query (links from other apps, embeds).
 * Store them and take them out of the visible URL before the app renders, so they are neither
 * bookmarked nor leaked through the Referer header. Returns true when anything was taken.
 */
export function consumeUrlSession(
  href: string,
  storage: Pick<Storage, 'setItem'>,
  replaceUrl: (url: string) => void,
): boolean {
  const url = new URL(href);
  let changed = false;
  for (const [param, key] of PARAMS) {
    const value = url.searchParams.get(param);
    if (value === null) continue;
    if (value) storage.setItem(key, value);
    url.searchParams.delete(param);
    changed = true;
  }
  if (changed) replaceUrl(`${url.pathname}${url.search}${url.hash}`);
  return changed;
}
