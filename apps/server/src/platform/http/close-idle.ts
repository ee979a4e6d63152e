import type { FastifyInstance } from 'fastify';

/**
 * Fastify's close closes the connections that are idle at that moment and then waits for the
 * others. A keep-alive connection whose response was still being written then turns idle and stays
 * open until the client gives up on it (Fastify keeps idle connections 72 s), holding the close
 * for as long: a test that read a whole download and closed the app at once hung for that reason.
 * While the server closes, connections are closed as soon as they turn idle.
 */
export function closeIdleConnectionsWhileClosing(app: FastifyInstance, everyMs = 50) {
  app.addHook('preClose', (done) => {
    const server = app.server;
    if (!server.listening) return done();
    const timer = setInterval(() => server.closeIdleConnections(), everyMs);
    server.once('close', () => clearInterval(timer));
    done();
  });
}
