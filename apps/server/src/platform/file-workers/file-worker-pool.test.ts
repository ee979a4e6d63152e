import { afterEach, describe, expect, it } from 'vitest';
import { createFileWorkerPool, FileRefusal, FileWorkerLimit, type FileWorkerPool } from './file-worker-pool.ts';
import type { FixtureTask } from './fixture.worker.ts';

const ENTRY = new URL('./fixture.worker.ts', import.meta.url);

describe('file worker pool', () => {
  let pool: FileWorkerPool;
  const open = (options: Partial<Parameters<typeof createFileWorkerPool>[0]> = {}) => {
    pool = createFileWorkerPool({ entry: ENTRY, maxWorkers: 1, heapMb: 64, timeoutMs: 5_000, ...options });
    return pool;
  };
  const run = (task: FixtureTask, signal?: AbortSignal) => pool.run(task, { signal });
  afterEach(() => pool?.close());

  it('streams items, returns the result, moves transferred bytes and reuses its thread', async () => {
    open();
    const items: number[] = [];
    const bytes = new Uint8Array(1000);
    const steps = pool.stream<number, { items: number; bytes: number }>(
      { do: 'echo', items: 5, bytes } satisfies FixtureTask,
      { transfer: [bytes.buffer] },
    );
    let step = await steps.next();
    while (!step.done) {
      items.push(...step.value);
      step = await steps.next();
    }
    expect(items).toEqual([0, 1, 2, 3, 4]);
    expect(step.value).toEqual({ items: 5, bytes: 1000 });
    expect(bytes.length).toBe(0); // moved, not copied
    expect(await run({ do: 'echo', items: 0 })).toEqual({ items: 0, bytes: 0 });
    expect(pool.size).toBe(1);
  });

  it('reports a refusal with its code and keeps the thread; a fault ends the thread', async () => {
    open();
    await expect(run({ do: 'refuse' })).rejects.toEqual(new FileRefusal('REFUSED', 'not this file'));
    expect(pool.size).toBe(1);
    await expect(run({ do: 'fail' })).rejects.toThrow(/a bug/);
    expect(pool.size).toBe(0);
    expect(await run({ do: 'echo', items: 1 })).toEqual({ items: 1, bytes: 0 });
  });

  it('ends a thread that runs past the time limit, and the next task gets a new one', async () => {
    open({ timeoutMs: 300 });
    // Timed from a started thread: starting one through tsx on a busy machine takes seconds.
    await run({ do: 'echo', items: 0 });
    const started = Date.now();
    await expect(run({ do: 'spin' })).rejects.toEqual(new FileWorkerLimit('time'));
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await run({ do: 'echo', items: 2 })).toEqual({ items: 2, bytes: 0 });
  });

  it('ends a thread that runs out of heap, and the next task gets a new one', async () => {
    open({ timeoutMs: 20_000 });
    const memory = await run({ do: 'grow' }).catch((error: unknown) => error);
    expect(memory).toEqual(new FileWorkerLimit('memory'));
    expect(await run({ do: 'echo', items: 3 })).toEqual({ items: 3, bytes: 0 });
  });

  it('asks a thread the caller left to stop, and keeps it for the next task', async () => {
    open();
    for await (const items of pool.stream<number>({ do: 'until-stopped' } satisfies FixtureTask)) {
      if (items.at(-1)! >= 3) break;
    }
    expect(pool.size).toBe(1);
    const controller = new AbortController();
    const aborted = run({ do: 'until-stopped' }, controller.signal);
    setTimeout(() => controller.abort(new Error('gone')), 50);
    await expect(aborted).rejects.toThrow('gone');
    expect(await run({ do: 'echo', items: 1 })).toEqual({ items: 1, bytes: 0 });
    expect(pool.size).toBe(1);
  });

  it('hands a wake-up on when the waiter it woke was aborted before it could take the thread', async () => {
    open({ idleMs: 10_000 });
    const first = pool.stream<number>({ do: 'until-stopped' } satisfies FixtureTask);
    await first.next(); // the only thread is busy
    // Aborted the moment it is woken (the pool drops its abort listener then), before it can run.
    const controller = new AbortController();
    const { signal } = controller;
    const removeListener = signal.removeEventListener.bind(signal);
    signal.removeEventListener = (...args: Parameters<AbortSignal['removeEventListener']>) => {
      removeListener(...args);
      controller.abort(new Error('gone'));
    };
    const woken = run({ do: 'echo', items: 0 }, signal);
    const next = run({ do: 'echo', items: 1 });
    await first.return(undefined); // hands the thread back, which wakes the first waiter
    await expect(woken).rejects.toThrow('gone');
    // Without the hand-on, this one waited for the idle thread's timer to end it (10 s here).
    const started = Date.now();
    expect(await next).toEqual({ items: 1, bytes: 0 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(pool.size).toBe(1);
  });

  it('runs at most maxWorkers threads; other tasks wait for one', async () => {
    open({ maxWorkers: 2 });
    const order: string[] = [];
    const slow = (name: string) =>
      (async () => {
        let seen = 0;
        for await (const items of pool.stream<number>({ do: 'until-stopped' } satisfies FixtureTask)) {
          seen += items.length;
          if (seen >= 20) break;
        }
        order.push(name);
      })();
    const tasks = [slow('a'), slow('b'), run({ do: 'echo', items: 0 }).then(() => order.push('quick'))];
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(pool.size).toBe(2);
    await Promise.all(tasks);
    expect(order.indexOf('quick')).toBeGreaterThan(0); // it waited for a thread
    expect(pool.size).toBe(2);
  });
});
