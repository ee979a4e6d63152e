/**
 * Read-through caches for the rows every request needs (session, user, membership), kept
 * coherent by invalidation messages. Each write that changes a cached row publishes its key; every
 * process (PostgreSQL LISTEN/NOTIFY, so it also works N-wide behind a load balancer) drops it.
 * A TTL backs this up in case a message is ever missed (e.g. during a reconnect).
 */
export interface InvalidationBus {
  publish(key: string): Promise<void>;
  subscribe(listener: (key: string) => void): void;
}

export const INVALIDATION_CHANNEL = 'athena_cache';

/**
 * `notify` sends a NOTIFY; `listen` registers for the channel. The local delivery happens at once,
 * so the writer's own process never reads its stale copy, even before the NOTIFY comes back.
 */
export function createInvalidationBus(ops: {
  notify: (key: string) => Promise<void>;
  listen: (onMessage: (key: string) => void) => Promise<void>;
}): InvalidationBus & { start(): Promise<void> } {
  const listeners: ((key: string) => void)[] = [];
  const deliver = (key: string) => {
    for (const listener of listeners) listener(key);
  };
  return {
    start: () => ops.listen(deliver),
    async publish(key) {
      deliver(key);
      await ops.notify(key);
    },
    subscribe(listener) {
      listeners.push(listener);
    },
  };
}

/** A bounded map with per-entry expiry and tags, so one invalidation can drop many entries. */
export class TaggedCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number; tags: string[] }>();
  private readonly byTag = new Map<string, Set<string>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 50_000,
  ) {}

  get(key: string, nowMs = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= nowMs) {
      this.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V, tags: string[], nowMs = Date.now()) {
    if (this.entries.size >= this.maxEntries) this.clear();
    this.delete(key);
    this.entries.set(key, { value, expiresAt: nowMs + this.ttlMs, tags });
    for (const tag of tags) {
      const keys = this.byTag.get(tag) ?? new Set<string>();
      keys.add(key);
      this.byTag.set(tag, keys);
    }
  }

  delete(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    for (const tag of entry.tags) this.byTag.get(tag)?.delete(key);
  }

  invalidate(tag: string) {
    const keys = this.byTag.get(tag);
    if (!keys) return;
    this.byTag.delete(tag);
    for (const key of keys) this.delete(key);
  }

  clear() {
    this.entries.clear();
    this.byTag.clear();
  }
}
