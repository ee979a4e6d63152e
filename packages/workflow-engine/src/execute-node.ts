import { type Selector, WORKFLOW_LIMITS, type WorkflowNode } from '@athena/contract';
import { linkedController, raceSignal, sleep } from './abort.ts';
import type { BuiltinContext, ScopeFailure } from './nodes/context.ts';
import { builtinOf, COMPOUND } from './nodes/index.ts';
import { executionIdOf, type Frame, readSelector } from './pool.ts';
import { renderReferences } from './references.ts';
import { type Execution, errorOf, type RunState } from './run-state.ts';
import { MaskedStream } from './secrets.ts';
import { type NodeError, NodeFailure, type NodeResult } from './types.ts';

// One execution of one node: a step counted, node_started, attempts with the node's timeout and
// retries, then its error strategy, then node_finished. Built-in nodes that only read and route
// run inline (no timer, no signal of their own), which keeps the engine's cost per node small.

export type NodeOutcome =
  | { status: 'succeeded' | 'handled'; branch: string }
  | { status: 'failed'; error: NodeError }
  /** The run or the enclosing scope stopped while the node ran; the stop says why. */
  | { status: 'stopped' };

export type BodyRunner = (scopeId: string, frame: Frame, signal: AbortSignal) => Promise<ScopeFailure | null>;

function attempt(
  run: RunState,
  node: WorkflowNode,
  frame: Frame,
  signal: AbortSignal,
  number: number,
  runBody: BodyRunner,
): Promise<NodeResult> {
  const builtin = builtinOf(node.type);
  const compound = COMPOUND.has(node.type);
  const own = builtin && !compound ? null : linkedController(signal);
  let open = true;
  // Without secrets there is nothing to hold back, and text streams as it comes.
  const send = (text: string) => {
    if (text) run.emit({ type: 'text_chunk', node_id: node.id, text });
  };
  const stream = run.secrets.length > 0 ? new MaskedStream(run.secrets, send) : null;
  const close = () => {
    if (!open) return;
    open = false;
    stream?.flush();
  };
  const read = (selector: Selector) => readSelector(frame, run.globals, selector);
  const context: BuiltinContext = {
    node,
    read,
    render: (text) => renderReferences(text, read),
    signal: own?.controller.signal ?? signal,
    emitText: (text) => {
      if (!open || !text) return;
      if (stream) stream.push(text);
      else send(text);
    },
    mask: (value) => run.mask(value),
    maskDerived: (source, derived) => run.maskDerived(source, derived),
    system: run.globals.system,
    attempt: number,
    frame,
    run,
    readIn: (other, selector) => readSelector(other, run.globals, selector),
    runBody: (bodyFrame, bodySignal) => runBody(node.id, bodyFrame, bodySignal),
  };
  if (!own) {
    try {
      return Promise.resolve(builtin!(context)).finally(close);
    } catch (thrown) {
      close();
      return Promise.reject(thrown);
    }
  }
  const timeoutMs = node.errors.timeout_ms ?? WORKFLOW_LIMITS.nodeTimeoutMsDefault;
  const timer = compound
    ? undefined
    : setTimeout(() => own.controller.abort(new NodeFailure('WORKFLOW_NODE_TIMEOUT', { ms: timeoutMs })), timeoutMs);
  let work: Promise<NodeResult>;
  try {
    work = builtin ? Promise.resolve(builtin(context)) : runExternal(run, node, context);
  } catch (thrown) {
    work = Promise.reject(thrown);
  }
  return raceSignal(work, own.controller.signal).finally(() => {
    close();
    clearTimeout(timer);
    own.dispose();
  });
}

function runExternal(run: RunState, node: WorkflowNode, context: BuiltinContext): Promise<NodeResult> {
  if (node.type === 'unsupported') {
    throw new NodeFailure('WORKFLOW_NODE_UNSUPPORTED', { node: node.title || node.id, type: node.data.original_type });
  }
  const executor = (run.executors as Record<string, ((c: BuiltinContext) => Promise<NodeResult>) | undefined>)[
    node.type
  ];
  if (!executor) throw new NodeFailure('WORKFLOW_NODE_UNSUPPORTED', { node: node.title || node.id, type: node.type });
  return executor(context);
}

export async function runNode(
  run: RunState,
  node: WorkflowNode,
  frame: Frame,
  signal: AbortSignal,
  runBody: BodyRunner,
): Promise<NodeOutcome> {
  if (signal.aborted) return { status: 'stopped' };
  if (++run.steps > run.maxSteps) {
    run.steps = run.maxSteps;
    run.stop('step_limit', { code: 'WORKFLOW_STEP_LIMIT', params: { max: run.maxSteps }, detail: '' }, node.id);
    return { status: 'stopped' };
  }
  const execution = run.begin(node, frame, executionIdOf(frame, node.id));
  const { retry } = node.errors;
  for (let number = 1; ; number++) {
    execution.attempts = number;
    try {
      const result = await attempt(run, node, frame, signal, number, runBody);
      if (execution.done) return { status: 'stopped' };
      frame.outputs.set(node.id, result.outputs);
      run.tokens += result.tokens ?? 0;
      run.finish(execution, 'succeeded', result);
      return { status: 'succeeded', branch: result.branch ?? 'out' };
    } catch (thrown) {
      if (execution.done) return { status: 'stopped' };
      if (signal.aborted) return stoppedWith(run, execution, signal);
      const error = errorOf(thrown);
      if (number <= retry.max) {
        run.emit({
          type: 'node_retried',
          execution_id: execution.id,
          node_id: node.id,
          attempt: number + 1,
          error: run.mask(error),
          at: Date.now(),
        });
        try {
          await sleep(retry.interval_ms, signal);
        } catch {
          return stoppedWith(run, execution, signal);
        }
        continue;
      }
      return handleFailure(run, execution, frame, error);
    }
  }
}

function stoppedWith(run: RunState, execution: Execution, signal: AbortSignal): NodeOutcome {
  run.finish(execution, 'failed', { error: errorOf(signal.reason) });
  return { status: 'stopped' };
}

function handleFailure(run: RunState, execution: Execution, frame: Frame, error: NodeError): NodeOutcome {
  const { node } = execution;
  switch (node.errors.on_error) {
    case 'abort':
      run.finish(execution, 'failed', { error });
      return { status: 'failed', error };
    case 'default': {
      const outputs = { ...node.errors.default_outputs };
      frame.outputs.set(node.id, outputs);
      run.handled = true;
      run.finish(execution, 'handled', { outputs, error });
      return { status: 'handled', branch: 'out' };
    }
    case 'fail_branch': {
      const outputs = { error_message: error.detail || error.code };
      frame.outputs.set(node.id, outputs);
      run.handled = true;
      run.finish(execution, 'handled', { outputs, error });
      return { status: 'handled', branch: 'fail' };
    }
  }
}
