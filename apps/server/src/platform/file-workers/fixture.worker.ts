// A worker entry for the pool's own tests: tasks that answer, refuse, fail, loop forever, eat
// memory or run until told to stop, so the pool's limits are checked without a real parser.
import { serveFileTasks } from './serve-file-tasks.ts';

export type FixtureTask =
  | { do: 'echo'; items: number; bytes?: Uint8Array }
  | { do: 'refuse' }
  | { do: 'fail' }
  | { do: 'spin' }
  | { do: 'grow' }
  | { do: 'until-stopped' };

class Refused extends Error {}

const retained: string[][] = [];

serveFileTasks<FixtureTask>(
  async (task, context) => {
    switch (task.do) {
      case 'echo':
        for (let index = 0; index < task.items; index++) context.emit(index);
        return { items: task.items, bytes: task.bytes?.length ?? 0 };
      case 'refuse':
        throw new Refused('not this file');
      case 'fail':
        throw new Error('a bug');
      case 'spin':
        for (;;);
      case 'grow':
        for (;;) retained.push(Array.from({ length: 100_000 }, (_, index) => `item ${index} ${retained.length}`));
      case 'until-stopped': {
        let sent = 0;
        while (!context.stopped) {
          context.emit(sent++);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        return sent;
      }
    }
  },
  (error) => (error instanceof Refused ? { code: 'REFUSED', detail: error.message } : null),
);
