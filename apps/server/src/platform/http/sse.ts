import type { ServerResponse } from 'node:http';
import {
  errorEnvelope,
  STREAM_HEARTBEAT_MS,
  type StreamDescriptor,
  type StreamEvent,
  type StreamEventInput,
} from '@athena/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AuthContext } from '../auth-guard.ts';
import { ServerShuttingDown, trackStream } from './open-streams.ts';
import { contextOf, type RequestContext } from './request-context.ts';
import { sessionFirst } from './route.ts';
import { hijack } from './security-headers.ts';

/** What a stream's handler knows of its caller: the session and space when the stream needs one. */
export type StreamContext<S extends StreamDescriptor> = S['auth'] extends true ? AuthContext : RequestContext;

/** A stream a route writes: only the events its descriptor names, each with its own data type. */
export interface EventStream<S extends StreamDescriptor> {
  /**
   * Aborts when the client goes away, which is how "stop" reaches the model call, or when the
   * server stops (its reason is then a ServerShuttingDown, and the client may still be reading).
   */
  signal: AbortSignal;
  send<K extends keyof S['events'] & string>(event: K, data: StreamEventInput<S, K>): void;
  /** The same, for an event already in `{ event, data }` form (as a command hands them over). */
  emit(message: StreamEvent<S>): void;
  /** With `data` framing: marks the answer complete (OpenAI's `data: [DONE]`). */
  done(): void;
  end(): void;
}

const EVENT_STREAM_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  // Nothing between us and the client may transform (compress) the stream.
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  // Reverse proxies (nginx) must not buffer a stream.
  'x-accel-buffering': 'no',
};

/**
 * Starts an event-stream answer on a hijacked reply. The status line and headers leave now rather
 * than with the first event, so the client knows at once that its stream is open, however long the
 * first event takes.
 */
export function startEventStream(res: ServerResponse) {
  res.writeHead(200, EVENT_STREAM_HEADERS);
  res.flushHeaders();
}

/**
 * Writes to an event stream and sends it at once. Node holds a response's writes until
 * process.nextTick, which waits for the microtask queue to empty: work that never waits for
 * outside I/O (a workflow run of in-process nodes, and every statement while the embedded database
 * ran on this thread) kept it busy, and an event could reach the client only with the next one.
 * Node 20 holds them in the corked socket; Node 22 and later in the response itself (its own chunk
 * buffer while the response is corked), so both are uncorked: each event leaves when it is
 * written, on either runtime.
 */
export function writeNow(res: ServerResponse, text: string) {
  if (res.writableEnded || res.destroyed) return;
  res.write(text);
  res.uncork();
  res.socket?.uncork();
}

/**
 * Takes over the response for a server-sent-event stream described in the contract. Everything
 * that can fail for the caller must have failed before this (so it still gets its JSON answer).
 * Every stream carries a heartbeat comment, which both our client and OpenAI's skip.
 */
export function openEventStream<S extends StreamDescriptor>(
  reply: FastifyReply,
  stream: S,
  options: { heartbeatMs?: number } = {},
): EventStream<S> {
  hijack(reply);
  const res = reply.raw;
  startEventStream(res);
  const controller = new AbortController();
  const heartbeat = setInterval(() => writeNow(res, ': ping\n\n'), options.heartbeatMs ?? STREAM_HEARTBEAT_MS);
  // The response closing before we ended it means the client left (or pressed stop).
  const closed = new Promise<void>((resolve) =>
    res.on('close', () => {
      clearInterval(heartbeat);
      if (!res.writableFinished) controller.abort();
      resolve();
    }),
  );
  trackStream(reply.server.server, {
    interrupt: () => controller.abort(new ServerShuttingDown()),
    destroy: () => res.destroy(),
    closed,
  });
  const write = (text: string) => writeNow(res, text);
  const send = (event: string, data: unknown) => {
    // The types already forbid it; this catches a cast that slipped through.
    if (!Object.hasOwn(stream.events, event)) throw new Error(`${stream.path} has no event "${event}"`);
    const json = JSON.stringify(data);
    write(stream.framing === 'event' ? `event: ${event}\ndata: ${json}\n\n` : `data: ${json}\n\n`);
  };
  return {
    signal: controller.signal,
    send,
    emit: (message) => send(message.event, message.data),
    done() {
      if (stream.framing === 'data' && stream.done) write(`data: ${stream.done}\n\n`);
    },
    end() {
      clearInterval(heartbeat);
      if (!res.writableEnded) res.end();
    },
  };
}

/**
 * Registers a stream route from its descriptor: the session is resolved first when the descriptor's
 * `auth` says so, then the body is validated (a JSON envelope answers a bad one), and the route is listed
 * in the OpenAPI document. The handler checks what else it must and then opens the stream; anything
 * it throws before that is answered as a JSON envelope. A stream opened by API key answers in its
 * own format and is registered by its route.
 */
export function streamRoute<S extends StreamDescriptor<z.ZodType, StreamDescriptor['events'], boolean>>(
  app: FastifyInstance,
  stream: S,
  handler: (body: z.output<S['body']>, ctx: StreamContext<S>, reply: FastifyReply) => Promise<void>,
) {
  if (typeof stream.auth !== 'boolean') throw new Error(`${stream.path} is opened by API key: register it by hand`);
  const session = stream.auth ? sessionFirst() : null;
  app.withTypeProvider<ZodTypeProvider>().post(
    stream.path,
    {
      schema: {
        summary: stream.summary,
        tags: [stream.tag],
        body: stream.body,
        response: { 200: errorEnvelope },
      },
      ...(session ? { onRequest: session.onRequest } : {}),
    },
    async (request, reply) => {
      const ctx = (session ? session.contextFor(request) : contextOf(request)) as StreamContext<S>;
      await handler(request.body as z.output<S['body']>, ctx, reply);
    },
  );
}

/**
 * Whether a live stream's reader is still a member of the space, asked before each event: once
 * they left or were removed, the stream tells them nothing more (their next call meets
 * SPACE_UNAVAILABLE, as on any page), even before its lifetime ends. Once false, always false.
 */
export function stillMemberOf(app: FastifyInstance, spaceId: string, userId: string) {
  let member = true;
  return async () => {
    if (member && !(await app.authenticator.roleIn(spaceId, userId))) member = false;
    return member;
  };
}

/**
 * A live stream's life: a comment at once (so the reader's request resolves now rather than at
 * the first event), then events until `seconds` have passed, when `bye` is sent and the stream
 * ends (the reader reconnects: a removed member's stream ends too, and load balancers can move
 * readers), or until the client leaves. `stop` unhooks the stream's source either way.
 */
export function liveFor(
  reply: FastifyReply,
  stream: { signal: AbortSignal; end(): void },
  options: { seconds: number; stop: () => void; bye: () => void },
) {
  writeNow(reply.raw, ': open\n\n');
  const lifetime = setTimeout(() => {
    options.stop();
    options.bye();
    stream.end();
  }, options.seconds * 1000);
  stream.signal.addEventListener('abort', () => {
    clearTimeout(lifetime);
    options.stop();
    stream.end();
  });
}
