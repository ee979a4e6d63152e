import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * While `work` runs, asks a real HTTP server on this (the server's) thread for an echo every 50 ms
 * and returns the slowest answer, in ms: user code in a sandbox thread must not hold it up.
 */
export async function slowestEchoWhile(work: Promise<unknown>): Promise<{ slowestMs: number; echoes: number }> {
  const server = createServer((request, response) => response.end(request.url));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let done = false;
  const settled = work.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  let slowestMs = 0;
  let echoes = 0;
  try {
    while (!done) {
      const started = performance.now();
      const text = await (await fetch(`http://127.0.0.1:${port}/echo-${echoes}`)).text();
      if (text !== `/echo-${echoes}`) throw new Error(`wrong echo ${text}`);
      slowestMs = Math.max(slowestMs, performance.now() - started);
      echoes++;
      await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, 50))]);
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  return { slowestMs, echoes };
}
