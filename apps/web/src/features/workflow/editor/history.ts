/**
 * Undo and redo over whole snapshots. Snapshots share every unchanged node with the one before
 * (changes copy only what they touch), so a hundred of them cost little more than one.
 *
 * `record(current)` is called just before a change; repeated edits with the same merge key within
 * `mergeMs` (typing in one field) record once, so one undo takes back the whole burst.
 */
export class History<T> {
  private past: T[] = [];
  private future: T[] = [];
  private lastKey: string | null = null;
  private lastAt = 0;

  constructor(
    private readonly limit = 100,
    private readonly mergeMs = 1_000,
    private readonly now: () => number = Date.now,
  ) {}

  record(current: T, mergeKey: string | null = null): void {
    const at = this.now();
    const merge = mergeKey !== null && mergeKey === this.lastKey && at - this.lastAt < this.mergeMs;
    this.lastKey = mergeKey;
    this.lastAt = at;
    if (merge) return;
    this.past.push(current);
    if (this.past.length > this.limit) this.past.shift();
    this.future = [];
  }

  undo(current: T): T | null {
    const previous = this.past.pop();
    if (previous === undefined) return null;
    this.future.push(current);
    this.lastKey = null;
    return previous;
  }

  redo(current: T): T | null {
    const next = this.future.pop();
    if (next === undefined) return null;
    this.past.push(current);
    this.lastKey = null;
    return next;
  }

  get canUndo(): boolean {
    return this.past.length > 0;
  }

  get canRedo(): boolean {
    return this.future.length > 0;
  }

  clear(): void {
    this.past = [];
    this.future = [];
    this.lastKey = null;
  }
}
