import { describe, expect, it } from 'vitest';
import { oneAtATime } from './one-at-a-time.ts';

/** A read whose answers the test releases by hand, in any order. */
function manualReads() {
  const started: { n: number; answer: (value: number) => void; fail: (error: Error) => void }[] = [];
  let count = 0;
  const read = () =>
    new Promise<number>((resolve, reject) => {
      count += 1;
      started.push({ n: count, answer: resolve, fail: reject });
    });
  return { started, read };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('oneAtATime', () => {
  it('starts a call made during a run only after that run has answered', async () => {
    const { started, read } = manualReads();
    const once = oneAtATime(read);
    const first = once();
    await tick();
    const second = once();
    await tick();
    // The second read waits: started now, its answer could land before the first one's.
    expect(started.map((s) => s.n)).toEqual([1]);
    started[0].answer(1);
    expect(await first).toBe(1);
    await tick();
    expect(started.map((s) => s.n)).toEqual([1, 2]);
    started[1].answer(2);
    expect(await second).toBe(2);
  });

  it('gives calls made while the next run waits that same run', async () => {
    const { started, read } = manualReads();
    const once = oneAtATime(read);
    const first = once();
    await tick();
    const [a, b, c] = [once(), once(), once()];
    expect(a).toBe(b);
    expect(b).toBe(c);
    started[0].answer(1);
    await first;
    await tick();
    started[1].answer(2);
    expect(await Promise.all([a, b, c])).toEqual([2, 2, 2]);
    expect(started).toHaveLength(2);
    // Once that run has started, a new call is a run of its own after it.
    const later = once();
    expect(later).not.toBe(a);
    await tick();
    started[2].answer(3);
    expect(await later).toBe(3);
  });

  it('goes on after a run that failed', async () => {
    const { started, read } = manualReads();
    const once = oneAtATime(read);
    const failed = once();
    await tick();
    const after = once();
    started[0].fail(new Error('offline'));
    await expect(failed).rejects.toThrow('offline');
    await tick();
    started[1].answer(5);
    expect(await after).toBe(5);
  });
});
