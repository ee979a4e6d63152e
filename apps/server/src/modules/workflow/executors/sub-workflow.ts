import type { NodeExecutor, RunSummary } from '@athena/workflow-engine';
import { NodeFailure } from '@athena/workflow-engine';
import { AppError } from '../../../platform/http/app-error.ts';

/** How deep workflows may call workflows: a workflow that calls itself stops here. */
export const MAX_SUB_WORKFLOW_DEPTH = 5;

export interface SubWorkflowDeps {
  /** This run's depth: 0 for a run a person or trigger started, 1 for a sub-workflow of it… */
  depth: number;
  /**
   * Runs the workflow's effective version (WORKFLOW_NOT_EFFECTIVE when it has none) as a run of
   * its own, recorded with trigger `sub_workflow`, and answers its summary.
   */
  runEffective(params: {
    workflowId: string;
    inputs: Record<string, unknown>;
    depth: number;
    signal: AbortSignal;
  }): Promise<RunSummary & { run_id: string }>;
}

/** A sub-workflow node: the referenced workflow's effective version runs with the bound inputs. */
export function subWorkflowExecutor(deps: SubWorkflowDeps): NodeExecutor<'sub_workflow'> {
  return async (ctx) => {
    const { data } = ctx.node;
    if (deps.depth + 1 > MAX_SUB_WORKFLOW_DEPTH) {
      throw new NodeFailure('WORKFLOW_SUBFLOW_TOO_DEEP', { max: MAX_SUB_WORKFLOW_DEPTH });
    }
    const inputs = Object.fromEntries(data.inputs.map((bound) => [bound.name, ctx.read(bound.selector)]));
    const summary = await deps
      .runEffective({ workflowId: data.workflow_id, inputs, depth: deps.depth + 1, signal: ctx.signal })
      .catch((error: unknown) => {
        // Refusals before the sub-run starts (not effective, missing inputs) keep their own code.
        if (error instanceof AppError) throw new NodeFailure(error.key, error.params);
        throw error;
      });
    if (summary.result === 'failed' && summary.failure) {
      const { error } = summary.failure;
      throw new NodeFailure(error.code, error.params, error.detail);
    }
    // Offered as `outputs` (the sub-run's end outputs, read as [node, 'outputs', name]) and `answer`;
    // `result` and `run_id` are kept for the run's record.
    return {
      outputs: { outputs: summary.outputs, answer: summary.answer, result: summary.result, run_id: summary.run_id },
      inputs,
      tokens: summary.tokens,
    };
  };
}
