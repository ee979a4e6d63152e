import { type Language, STREAM_HEARTBEAT_MS, type StreamDescriptor } from '@athena/contract';
import type { FastifyReply } from 'fastify';
import { isShutdown, ServerShuttingDown, trackStream } from '../../../platform/http/open-streams.ts';
import { hijack } from '../../../platform/http/security-headers.ts';
import { startEventStream, writeNow } from '../../../platform/http/sse.ts';
import type { LiveRuns } from './live-runs.ts';
import type { RunRepo, StoredEvent } from './run.repo.ts';
import { presentEvent, type StoredSummary, summaryOfEnding } from './run-events.ts';

/** How often a reader of a run in another process looks for its new events. */
export const POLL_MS = 300;

/**
 * A run's event stream. Unlike a chat's, every event carries `id: <seq>` so a client that lost the
 * connection reconnects with `Last-Event-ID`, and a client leaving does not stop the run (only
 * cancel does). Registered with open-streams so a shutdown drains it.
 */
export function openRunStream(reply: FastifyReply, descriptor: StreamDescriptor, language: Language) {
  hijack(reply);
  const res = reply.raw;
  startEventStream(res);
  const controller = new AbortController();
  const heartbeat = setInterval(() => writeNow(res, ': ping\n\n'), STREAM_HEARTBEAT_MS);
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
  return {
    signal: controller.signal,
    send(stored: StoredEvent) {
      const { event, data } = presentEvent(stored.event, language);
      if (!Object.hasOwn(descriptor.events, event)) throw new Error(`${descriptor.path} has no event "${event}"`);
      writeNow(res, `id: ${stored.seq}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end() {
      clearInterval(heartbeat);
      if (!res.writableEnded) res.end();
    },
  };
}
export type RunStream = ReturnType<typeof openRunStream>;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

const isEnd = (stored: StoredEvent) => stored.event.event === 'run_finished';

/**
 * Sends a run's events after `afterSeq` to `out`, then its live ones, until run_finished. A run of
 * this process is read from memory and followed by its emitter; a run of another process (or one
 * already finished) from the events table, polled every POLL_MS. A run a stopped process left
 * behind has no run_finished of its own once it is marked failed: one is made from its row.
 */
export async function followRun(
  deps: { live: LiveRuns; repo: RunRepo },
  runId: string,
  afterSeq: number,
  out: Pick<RunStream, 'send' | 'signal'>,
) {
  const live = deps.live.get(runId);
  if (live) {
    await new Promise<void>((resolve) => {
      let last = afterSeq;
      let ended = false;
      const finish = () => {
        if (ended) return;
        ended = true;
        live.listeners.delete(deliver);
        resolve();
      };
      function deliver(stored: StoredEvent) {
        if (stored.seq <= last || ended) return;
        last = stored.seq;
        out.send(stored);
        if (isEnd(stored)) finish();
      }
      // Replay and subscribe in one synchronous step: no event can fall between the two.
      for (const stored of live.events) deliver(stored);
      if (ended) return;
      live.listeners.add(deliver);
      // A reader who left stops reading; on shutdown the run itself ends soon and says so.
      out.signal.addEventListener('abort', () => {
        if (!isShutdown(out.signal)) finish();
      });
      void live.done.then(finish);
    });
    return;
  }
  let last = afterSeq;
  for (;;) {
    const events = await deps.repo.eventsAfter(runId, last);
    for (const stored of events) {
      out.send(stored);
      last = stored.seq;
      if (isEnd(stored)) return;
    }
    if (events.length > 0) continue;
    const row = await deps.repo.status(runId);
    if (!row) {
      out.send({ seq: last + 1, event: { event: 'error', data: { key: 'WORKFLOW_RUN_NOT_FOUND', kind: 'gone' } } });
      return;
    }
    if (row.status === 'finished') {
      // Events written just before the row was finished are read once more before one is made up.
      const rest = await deps.repo.eventsAfter(runId, last);
      for (const stored of rest) {
        out.send(stored);
        last = stored.seq;
        if (isEnd(stored)) return;
      }
      out.send({ seq: last + 1, event: { event: 'run_finished', data: summaryOfRow(row) } });
      return;
    }
    if (out.signal.aborted) return;
    await sleep(POLL_MS, out.signal);
    if (out.signal.aborted) return;
  }
}

/** A run that finished in another process, or was failed by the sweep, as its row says. */
function summaryOfRow(row: NonNullable<Awaited<ReturnType<RunRepo['status']>>>): StoredSummary {
  return summaryOfEnding(row.id, {
    ...row,
    result: (row.result ?? 'failed') as StoredSummary['result'],
    error: row.error ?? { code: 'WORKFLOW_SERVER_STOPPED', params: {}, detail: '' },
  });
}
