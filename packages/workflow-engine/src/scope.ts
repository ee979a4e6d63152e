import { linkedController, onAbort } from './abort.ts';
import { type NodeOutcome, runNode } from './execute-node.ts';
import type { ScopeFailure } from './nodes/context.ts';
import type { Frame } from './pool.ts';
import { errorOf, type RunState } from './run-state.ts';
import { NodeFailure } from './types.ts';

// Runs the nodes of one scope (the top level, or one iteration item or loop round) to the end.
// A node is ready when every edge into it is resolved. An edge is taken when its source finished
// through that edge's handle, and skipped otherwise (another if/else case, the fail branch not
// taken, a skipped source). A ready node with at least one taken edge runs; one whose edges were
// all skipped is skipped in turn, so skipping flows down a dead branch until it meets a join that
// a live branch also reaches. Nodes with no edge in run at once, concurrently.

export function runScope(
  run: RunState,
  scopeId: string | null,
  frame: Frame,
  parentSignal: AbortSignal,
): Promise<ScopeFailure | null> {
  const members = run.plan.members.get(scopeId) ?? [];
  if (members.length === 0) return Promise.resolve(null);
  const { controller, dispose } = linkedController(parentSignal);
  const signal = controller.signal;
  const waiting = new Map<string, { left: number; taken: boolean }>();
  for (const node of members) waiting.set(node.id, { left: run.plan.incoming.get(node.id) ?? 0, taken: false });
  let remaining = members.length;

  return new Promise<ScopeFailure | null>((resolve) => {
    let settled = false;
    let off = () => {};
    const settle = (failure: ScopeFailure | null) => {
      if (settled) return;
      settled = true;
      off();
      dispose();
      resolve(failure);
    };
    off = onAbort(signal, () => settle(null));

    const resolutions: Array<[string, boolean]> = [];
    const resolveEdges = (nodeId: string, branch: string | null) => {
      for (const edge of run.plan.outgoing.get(nodeId) ?? []) {
        resolutions.push([edge.target, branch !== null && edge.source_handle === branch]);
      }
    };
    const drain = () => {
      while (resolutions.length > 0 && !settled) {
        const [target, taken] = resolutions.pop()!;
        const state = waiting.get(target);
        if (!state) continue;
        state.left--;
        if (taken) state.taken = true;
        if (state.left > 0) continue;
        if (state.taken) start(target);
        else {
          remaining--;
          resolveEdges(target, null);
        }
      }
      if (remaining === 0) settle(null);
    };
    const done = (nodeId: string, outcome: NodeOutcome) => {
      if (settled || outcome.status === 'stopped') return;
      if (outcome.status === 'failed') {
        // Settle before aborting: the abort would otherwise settle this scope as merely stopped.
        settle({ error: outcome.error, node_id: nodeId });
        controller.abort(new NodeFailure('WORKFLOW_RUN_CANCELLED'));
        return;
      }
      remaining--;
      resolveEdges(nodeId, outcome.branch);
      drain();
    };
    const start = (nodeId: string) => {
      const node = run.plan.nodes.get(nodeId)!;
      runNode(run, node, frame, signal, (bodyId, bodyFrame, bodySignal) =>
        runScope(run, bodyId, bodyFrame, bodySignal),
      ).then(
        (outcome) => done(nodeId, outcome),
        (thrown: unknown) => done(nodeId, { status: 'failed', error: errorOf(thrown) }),
      );
    };

    const entries = members.filter((node) => waiting.get(node.id)!.left === 0);
    // Only a graph validation refuses (a cycle with no way in) has no entry; do not wait on it.
    if (entries.length === 0) settle(null);
    for (const node of entries) start(node.id);
  });
}
