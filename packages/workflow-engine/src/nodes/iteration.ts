import { WORKFLOW_LIMITS } from '@athena/contract';
import { linkedController } from '../abort.ts';
import { childFrame } from '../pool.ts';
import { NodeFailure } from '../types.ts';
import { type Builtin, type ScopeFailure, titleOf } from './context.ts';

// Runs the body once per item, one at a time or up to parallel_limit at once. error_mode says
// what a failed item does: terminate fails the node (the other items are cancelled), continue
// puts null in its place, remove drops it. A failed item that is kept going counts as handled.

export const iterationNode: Builtin<'iteration'> = async (context) => {
  const { node, run } = context;
  const { data } = node;
  const list = context.read(data.list);
  if (!Array.isArray(list)) {
    throw new NodeFailure('WORKFLOW_LIST_EXPECTED', { node: titleOf(node), selector: data.list.join('.') });
  }
  const max = WORKFLOW_LIMITS.iterationMaxItems;
  if (list.length > max) {
    throw new NodeFailure('WORKFLOW_ITERATION_TOO_MANY', { node: titleOf(node), count: list.length, max });
  }
  const results: unknown[] = Array.from({ length: list.length }, () => null);
  const dropped = new Set<number>();
  const items = linkedController(context.signal);
  let failure: ScopeFailure | null = null;
  let next = 0;
  const worker = async () => {
    while (next < list.length && !items.controller.signal.aborted) {
      const index = next++;
      const frame = childFrame(context.frame, node.id, index, { item: list[index], index });
      const itemFailure = await context.runBody(frame, items.controller.signal);
      if (items.controller.signal.aborted) return;
      if (!itemFailure) {
        results[index] = context.readIn(frame, data.output);
        continue;
      }
      if (data.error_mode === 'terminate') {
        failure = itemFailure;
        items.controller.abort(new NodeFailure('WORKFLOW_RUN_CANCELLED'));
        return;
      }
      run.handled = true;
      if (data.error_mode === 'remove') dropped.add(index);
    }
  };
  const workers = data.parallel ? Math.min(data.parallel_limit, list.length) : Math.min(1, list.length);
  try {
    await Promise.all(Array.from({ length: workers }, worker));
  } finally {
    items.dispose();
  }
  if (context.signal.aborted) throw context.signal.reason;
  const failed = failure as ScopeFailure | null;
  if (failed) throw new NodeFailure(failed.error.code, failed.error.params, failed.error.detail);
  return {
    outputs: { output: dropped.size > 0 ? results.filter((_, index) => !dropped.has(index)) : results },
    inputs: { items: list.length },
  };
};
