import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { closeIdleConnectionsWhileClosing } from './close-idle.ts';

/**
 * A keep-alive response still being written when the app starts closing: once it ends, its
 * connection must not keep the close waiting for the client to drop it.
 */
async function closeDuringResponse(withHelper: boolean) {
  const app = Fastify();
  if (withHelper) closeIdleConnectionsWhileClosing(app);
  let closing: Promise<void> | undefined;
  app.get('/slow', (_request, reply) => {
    reply.raw.writeHead(200, { 'content-length': '4', 'content-type': 'text/plain' });
    reply.raw.write('ab');
    // Start closing while this response is busy, then finish it.
    closing = app.close();
    setTimeout(() => reply.raw.end('cd'), 100);
    return reply;
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const body = await (await fetch(`http://127.0.0.1:${port}/slow`)).text();
  expect(body).toBe('abcd');
  const started = Date.now();
  const closed = await Promise.race([
    closing?.then(() => true),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), 1_500)),
  ]);
  if (!closed) app.server.closeAllConnections();
  return { closed, ms: Date.now() - started };
}

describe('closing the app while a keep-alive response is still written', () => {
  it('closes once the response ends, without waiting for the client to drop the connection', async () => {
    const { closed, ms } = await closeDuringResponse(true);
    expect(closed).toBe(true);
    expect(ms).toBeLessThan(1_000);
  });

  it('(the failure it prevents) waits for the idle connection without it', async () => {
    expect((await closeDuringResponse(false)).closed).toBe(false);
  });
});
