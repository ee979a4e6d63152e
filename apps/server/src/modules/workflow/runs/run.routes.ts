import { workflowRunRoutes as r, workflowRunStreams as s } from '@athena/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authedRoute } from '../../../platform/http/route.ts';
import { streamRoute } from '../../../platform/http/sse.ts';
import type { LiveRuns } from './live-runs.ts';
import type { RunRepo } from './run.repo.ts';
import type { RunService } from './run.service.ts';
import { followRun, openRunStream } from './run-stream.ts';
import type { SingleNodeService } from './single-node.service.ts';

/** `Last-Event-ID` as a sequence number, when a reconnecting client sent one. */
function lastEventId(request: FastifyRequest): number | null {
  const value = request.headers['last-event-id'];
  const seq = typeof value === 'string' && /^\d{1,10}$/.test(value.trim()) ? Number(value.trim()) : null;
  return seq;
}

export function registerRunRoutes(
  app: FastifyInstance,
  deps: { runs: RunService; singleNode: SingleNodeService; live: LiveRuns; repo: RunRepo },
) {
  const { runs } = deps;
  // Everything that can be refused is refused before the stream opens (a JSON answer); the run then
  // goes on whether or not its reader stays (a reconnect picks it up).
  streamRoute(app, s.run, async (body, ctx, reply) => {
    const run = await runs.start(ctx, body, { announceFirst: true });
    const stream = openRunStream(reply, s.run, ctx.language);
    try {
      await followRun(deps, run.id, 0, stream);
    } catch (error) {
      reply.log.error({ err: error, run: run.id }, 'workflow run stream failed');
    } finally {
      stream.end();
    }
  });
  streamRoute(app, s.events, async (body, ctx, reply) => {
    const runId = await runs.toFollow(ctx, body.run_id);
    const after = lastEventId(reply.request) ?? body.after_seq;
    const stream = openRunStream(reply, s.events, ctx.language);
    try {
      await followRun(deps, runId, after, stream);
    } catch (error) {
      reply.log.error({ err: error, run: runId }, 'workflow run reconnect failed');
    } finally {
      stream.end();
    }
  });
  authedRoute(app, r.runBlocking, (body, ctx) => runs.runBlocking(ctx, body));
  authedRoute(app, r.cancel, (body, ctx) => runs.cancel(ctx, body.run_id));
  authedRoute(app, r.list, (body, ctx) => runs.list(ctx, body));
  authedRoute(app, r.detail, (body, ctx) => runs.detail(ctx, body.run_id));
  authedRoute(app, r.nodeRun, (body, ctx) => deps.singleNode.run(ctx, body));
}
