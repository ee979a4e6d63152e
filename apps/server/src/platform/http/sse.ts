import type { FastifyReply } from 'fastify';

const HEARTBEAT_MS = 15_000;

/**
 * Takes over the response for a server-sent-event stream. Everything that can fail for the caller
 * must have failed before this (so it still gets a JSON envelope). The returned signal aborts when
 * the client goes away, which is how "stop" reaches the model call.
 */
export function openEventStream(reply: FastifyReply) {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // Reverse proxies (nginx) must not buffer a stream.
    'x-accel-buffering': 'no',
  });
  const controller = new AbortController();
  const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
  // The response closing before we ended it means the client left (or pressed stop).
  res.on('close', () => {
    clearInterval(heartbeat);
    if (!res.writableFinished) controller.abort();
  });
  return {
    signal: controller.signal,
    send(event: string, data: unknown) {
      if (!res.writableEnded) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end() {
      clearInterval(heartbeat);
      if (!res.writableEnded) res.end();
    },
  };
}
