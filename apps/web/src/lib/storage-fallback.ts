/**
 * Web storage that may be refused: a page framed by another site (the embeddable
 * /only-chat-history) is denied localStorage and sessionStorage when the browser blocks
 * third-party storage, and every read then throws. The app keeps its session there, so such a
 * page gets a storage in memory instead: the session (which an embed passes in the address) then
 * lasts as long as the page.
 */

/** A Storage kept in memory for the page's life. */
export function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    key: (index) => [...items.keys()][index] ?? null,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, String(value)),
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
  };
}

const usable = (target: object, name: 'localStorage' | 'sessionStorage') => {
  try {
    const storage = (target as Record<string, Storage>)[name];
    const probe = '__athena_probe__';
    storage.setItem(probe, probe);
    storage.removeItem(probe);
    return true;
  } catch {
    return false;
  }
};

/** Puts a memory storage in place of each one the browser refuses; returns the names replaced. */
export function ensureStorage(target: object): string[] {
  const replaced: string[] = [];
  for (const name of ['localStorage', 'sessionStorage'] as const) {
    if (usable(target, name)) continue;
    Object.defineProperty(target, name, { value: memoryStorage(), configurable: true, writable: false });
    replaced.push(name);
  }
  return replaced;
}

// On import, before any other module of the app reads storage (main.tsx imports this first).
if (typeof window !== 'undefined') ensureStorage(window);
