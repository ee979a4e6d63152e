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

/**
 * A bounded map with per-entry expiry and tags, so one invalidation can drop many entries.
 *
 * Callers read through it: `get`, on a miss read the row, `set`. A row read while another process
 * commits a change can be the old one, and the change's message can arrive before that read ends:
 * caching it would keep the old row until the TTL, with the message already spent. So `set` keeps
 * nothing when any invalidation arrived since its key's miss (the next read caches a fresh row).
 */
export class TaggedCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number; tags: string[] }>();
  private readonly byTag = new Map<string, Set<string>>();
  /** Bumped by every invalidation and clear. */
  private generation = 0;
  /** The generation at each key's miss, until its `set`. */
  private readonly missedAt = new Map<string, number>();
  /** Whether `missedAt` was ever emptied for size: a key missing from it then has unknown age. */
  private lostTrack = false;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 50_000,
  ) {}

  get(key: string, nowMs = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > nowMs) return entry.value;
    if (entry) this.delete(key);
    if (!this.missedAt.has(key)) {
      // Misses that are never set (rows that do not exist) would pile up.
      if (this.missedAt.size >= this.maxEntries) {
        this.missedAt.clear();
        this.lostTrack = true;
      }
      this.missedAt.set(key, this.generation);
    }
    return undefined;
  }

  set(key: string, value: V, tags: string[], nowMs = Date.now()) {
    const missedAt = this.missedAt.get(key) ?? (this.lostTrack ? -1 : this.generation);
    this.missedAt.delete(key);
    if (missedAt !== this.generation) return;
    if (this.entries.size >= this.maxEntries) this.clearEntries();
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
    // Counted even when nothing is cached under the tag: a read of it may be under way.
    this.generation += 1;
    const keys = this.byTag.get(tag);
    if (!keys) return;
    this.byTag.delete(tag);
    for (const key of keys) this.delete(key);
  }

  clear() {
    this.generation += 1;
    this.clearEntries();
  }

  private clearEntries() {
    this.entries.clear();
    this.byTag.clear();
  }
}
