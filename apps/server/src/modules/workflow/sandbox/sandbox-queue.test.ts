import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, MAX_WAITING_PER_SPACE, SandboxFailure } from './sandbox.ts';

// One team's runaway code must not hold up every other team's: runs wait per space and are served
// one space after another, and the wait is bounded.
const sandbox = createSandbox({ workers: 1, pythonWorkers: 1, memoryMb: 32, pythonMemoryMb: 160, timeoutMs: 1_000 });
afterAll(() => sandbox.close());

const endless = 'function main() { while (true) {} }';
const quick = 'function main() { return { ok: true } }';

describe('the sandbox queue', () => {
  it("serves another space's run after at most one run of a space with a backlog", async () => {
    await sandbox.runCode('javascript', quick, {}, { space: 'warm' });
    const finished: string[] = [];
    const track = (name: string, promise: Promise<unknown>) =>
      promise.then(
        () => finished.push(name),
        () => finished.push(name),
      );
    const loops = [1, 2, 3].map((n) => track(`A${n}`, sandbox.runCode('javascript', endless, {}, { space: 'A' })));
    const other = track('B', sandbox.runCode('javascript', quick, {}, { space: 'B' }));
    await Promise.all([...loops, other]);
    // A1 held the only thread; B was next in turn, before the rest of A's backlog.
    expect(finished.indexOf('B')).toBeLessThanOrEqual(1);
  });

  it('refuses a run at once when its space already has the most runs waiting', async () => {
    const runs = Array.from({ length: MAX_WAITING_PER_SPACE + 2 }, () =>
      sandbox.runCode('javascript', quick, {}, { space: 'flood' }).then(
        () => 'ran',
        (error: unknown) => (error instanceof SandboxFailure ? error.kind : 'other'),
      ),
    );
    const outcomes = await Promise.all(runs);
    expect(outcomes.filter((outcome) => outcome === 'busy')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'ran')).toHaveLength(MAX_WAITING_PER_SPACE + 1);
  });
});
