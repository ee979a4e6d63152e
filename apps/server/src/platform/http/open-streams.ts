import type { Server } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';

/**
 * The reason a stream's signal carries when the server, not the client, ended it: a turn told this
 * keeps what it has as interrupted and says so to a client that is still listening.
 */
export class ServerShuttingDown extends Error {
  constructor() {
    super('the server is shutting down');
    this.name = 'ServerShuttingDown';
  }
}

export const isShutdown = (signal: AbortSignal) => signal.aborted && signal.reason instanceof ServerShuttingDown;

interface OpenStream {
  /** Tells the stream's work to stop, with ServerShuttingDown as the reason. */
  interrupt(): void;
  /** Cuts the connection of a stream that did not end after being told. */
  destroy(): void;
  closed: Promise<void>;
}

/**
 * Every event stream a server has open. Kept per HTTP server (every encapsulated Fastify context
 * of one app shares it), so shutdown finds the streams whatever plugin opened them.
 */
const registries = new WeakMap<Server, Set<OpenStream>>();

function registryOf(server: Server) {
  let streams = registries.get(server);
  if (!streams) {
    streams = new Set();
    registries.set(server, streams);
  }
  return streams;
}

/** Records an open stream until its connection closes. */
export function trackStream(server: Server, stream: OpenStream) {
  const streams = registryOf(server);
  streams.add(stream);
  void stream.closed.then(() => streams.delete(stream));
}

/**
 * After being told, a stream has this long to write its last events and close before it is cut: an
 * interrupted chat answer needs one write to keep what it has, and the whole stop must fit in the
 * 10 s that Docker and systemd wait before SIGKILL (docs/architecture.md, "Stopping").
 */
const CUT_AFTER_MS = 1_000;

/**
 * Waits until no stream of `streams` is open or `deadline` (epoch ms) passes; true when none is
 * left. It looks at the set as it is now each time, so a stream opened while the server was still
 * accepting (the job queue stops first) is waited for too.
 */
async function noneOpenBy(streams: Set<OpenStream>, deadline: number) {
  while (streams.size > 0) {
    const left = deadline - Date.now();
    if (left <= 0) return false;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, left);
      void Promise.race([...streams].map((stream) => stream.closed)).then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
  return true;
}

/**
 * Part of a bounded shutdown (docs/architecture.md, "Stopping"): open streams get `graceMs` to end
 * on their own; those still open are told the server is stopping (a chat answer keeps what arrived
 * as interrupted and its client gets an error event and `end`), and any that still have not closed
 * CUT_AFTER_MS later are cut. Resolves within `graceMs` + CUT_AFTER_MS.
 */
export async function drainStreams(server: Server, graceMs: number, log: FastifyBaseLogger) {
  const streams = registryOf(server);
  if (streams.size > 0) log.info({ streams: streams.size, graceMs }, 'waiting for open streams to finish');
  if (await noneOpenBy(streams, Date.now() + graceMs)) return;
  log.warn({ streams: streams.size }, 'open streams did not finish in time; interrupting them');
  for (const stream of streams) stream.interrupt();
  if (await noneOpenBy(streams, Date.now() + CUT_AFTER_MS)) return;
  for (const stream of streams) stream.destroy();
}
