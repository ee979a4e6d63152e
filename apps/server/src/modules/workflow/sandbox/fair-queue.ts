/**
 * Runs waiting for a sandbox thread, served one space after another: a free thread goes to the
 * waiting space served least recently, so a space with many waiting runs (six endless loops, say)
 * gets its next one only when its turn comes round, and another team's run waits behind at most
 * one run per busy space, never behind the whole backlog. Bounded: past `perSpace` waiting runs of
 * one space, or `total` of all, a run is refused at once.
 */
export class FairQueue {
  /** Waiting runs by space. */
  private readonly waiting = new Map<string, Array<() => void>>();
  /** When each space last got a thread (a counter), forgotten once it has nothing waiting or running. */
  private readonly lastServed = new Map<string, number>();
  private served = 0;
  private size = 0;
  private active = 0;

  constructor(
    private readonly slots: number,
    private readonly perSpace: number,
    private readonly total: number,
  ) {}

  /**
   * Resolves when a slot is the caller's (release it with `release()`); null when the queue is
   * full for this space. Rejects with the signal's reason when the caller leaves while waiting.
   */
  acquire(space: string, signal?: AbortSignal): Promise<void> | null {
    if (this.active < this.slots && this.size === 0) {
      this.grant(space);
      return Promise.resolve();
    }
    const line = this.waiting.get(space) ?? [];
    if (line.length >= this.perSpace || this.size >= this.total) return null;
    return new Promise<void>((resolve, reject) => {
      const go = () => {
        signal?.removeEventListener('abort', leave);
        resolve();
      };
      const leave = () => {
        const current = this.waiting.get(space);
        const at = current?.indexOf(go) ?? -1;
        if (current && at >= 0) {
          current.splice(at, 1);
          this.size--;
          if (current.length === 0) this.waiting.delete(space);
        }
        reject(signal?.reason);
      };
      line.push(go);
      this.waiting.set(space, line);
      this.size++;
      signal?.addEventListener('abort', leave, { once: true });
    });
  }

  /** Frees a slot and hands it to the next space in turn. */
  release() {
    this.active--;
    this.next();
  }

  private grant(space: string) {
    this.active++;
    this.lastServed.set(space, ++this.served);
  }

  private next() {
    while (this.active < this.slots && this.size > 0) {
      let space = '';
      let oldest = Number.POSITIVE_INFINITY;
      for (const candidate of this.waiting.keys()) {
        const at = this.lastServed.get(candidate) ?? 0;
        if (at < oldest) [space, oldest] = [candidate, at];
      }
      const line = this.waiting.get(space) as Array<() => void>;
      const go = line.shift() as () => void;
      this.size--;
      if (line.length === 0) this.waiting.delete(space);
      this.grant(space);
      go();
    }
    // Spaces with nothing waiting start afresh next time; the map never grows with every space seen.
    if (this.size === 0 && this.active === 0) this.lastServed.clear();
  }

  /** Runs waiting now (tests). */
  get waitingCount() {
    return this.size;
  }
}
