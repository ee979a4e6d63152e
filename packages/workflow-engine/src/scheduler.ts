import { listedMessages } from '@athena/contract';
import { topFrame } from './pool.ts';
import { runResultOf } from './result.ts';
import { RunState } from './run-state.ts';
import { runScope } from './scope.ts';
import type { RunOptions, RunSummary } from './types.ts';
import { validateGraph } from './validate.ts';

// Runs a whole workflow. It never throws for what happens during a run: an invalid graph, a node
// error that is not handled, the step limit, the time limit and cancellation all end the run with
// a `failure` in its summary, after every in-flight node has been told to stop (their signals
// fire) and reported; the run does not wait for an executor that ignores its signal.

export async function runWorkflow(options: RunOptions): Promise<RunSummary> {
  const { graph } = options;
  const run = new RunState(graph, options.executors, options.inputs, options.system, options.onEvent);
  run.emit({ type: 'run_started', at: Date.now() });

  const problems = validateGraph(graph);
  if (problems.length > 0) {
    const first = problems[0]!;
    run.stop(
      'invalid_graph',
      {
        code: 'WORKFLOW_INVALID',
        params: { count: problems.length, problems: listedMessages(problems) },
        detail: problems.map((problem) => problem.code).join(', '),
      },
      first.node_id,
    );
  } else {
    const limitMs = graph.settings.max_run_ms;
    const timer = setTimeout(
      () => run.stop('timeout', { code: 'WORKFLOW_RUN_TIMEOUT', params: { ms: limitMs }, detail: '' }, null),
      limitMs,
    );
    const cancel = () => run.stop('cancelled', { code: 'WORKFLOW_RUN_CANCELLED', params: {}, detail: '' }, null);
    const outer = options.signal;
    if (outer?.aborted) cancel();
    else outer?.addEventListener('abort', cancel, { once: true });
    try {
      const failure = await Promise.race([runScope(run, null, topFrame(), run.signal), run.stopped.then(() => null)]);
      if (failure) run.stop('node_error', failure.error, failure.node_id);
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', cancel);
    }
  }

  run.finalize();
  const summary: RunSummary = run.mask({
    result: runResultOf({
      aborted: run.failure !== null,
      handled: run.handled,
      endOutputs: run.endOutputs,
      answers: run.answers,
    }),
    outputs: Object.assign({}, ...run.endOutputs) as Record<string, unknown>,
    answer: run.answers.join(''),
    failure: run.failure,
    steps: run.steps,
    tokens: run.tokens,
    elapsed_ms: Math.round(performance.now() - run.started),
  });
  run.emit({ type: 'run_finished', summary, at: Date.now() });
  run.close();
  return summary;
}
