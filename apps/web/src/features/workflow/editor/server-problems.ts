import type { WorkflowGraph, WorkflowProblem } from '@athena/contract';
import { validateGraph } from '@athena/workflow-engine';

const sameProblem = (a: WorkflowProblem, b: WorkflowProblem) =>
  a.code === b.code && a.node_id === b.node_id && JSON.stringify(a.params) === JSON.stringify(b.params);

/**
 * The problems only the server can judge (a model key, knowledge base, agent or workflow that is
 * not this team's): what it reported beyond the engine's own check of the same document. The
 * canvas checks the rest itself, live.
 */
export function serverOnlyProblems(graph: WorkflowGraph, reported: readonly WorkflowProblem[]): WorkflowProblem[] {
  const local = validateGraph(graph);
  return reported.filter((problem) => !local.some((mine) => sameProblem(mine, problem)));
}
