import type { WorkflowNodeType } from '@athena/contract';
import type { ExternalNodeType } from '../types.ts';
import { assignerNode } from './assigner.ts';
import type { Builtin } from './context.ts';
import { iterationNode } from './iteration.ts';
import { listOperatorNode } from './list-operator.ts';
import { loopNode } from './loop.ts';
import { aggregatorNode, answerNode, endNode, ifElseNode } from './simple.ts';
import { startNode } from './start.ts';

export type BuiltinType = Exclude<WorkflowNodeType, ExternalNodeType>;

export const BUILTINS: { [T in BuiltinType]: Builtin<T> } = {
  start: startNode,
  end: endNode,
  answer: answerNode,
  if_else: ifElseNode,
  aggregator: aggregatorNode,
  assigner: assignerNode,
  list_operator: listOperatorNode,
  iteration: iterationNode,
  loop: loopNode,
};

/** The built-ins that run a body: they get a signal and no node timeout (their body nodes have theirs). */
export const COMPOUND = new Set<WorkflowNodeType>(['iteration', 'loop']);

export function builtinOf(type: WorkflowNodeType): Builtin<WorkflowNodeType> | undefined {
  return (BUILTINS as Partial<Record<WorkflowNodeType, Builtin<WorkflowNodeType>>>)[type];
}
