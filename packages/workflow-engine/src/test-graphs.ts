import {
  type WorkflowEdge,
  type WorkflowGraph,
  type WorkflowGraphInput,
  type WorkflowNode,
  workflowGraphSchema,
} from '@athena/contract';

// Builders for the package's tests and bench: a graph written as briefly as possible, then parsed by
// the contract so that every default is filled in exactly as a saved document would have it.

type NodeInput = WorkflowGraphInput['nodes'][number];

export function graphOf(
  nodes: NodeInput[],
  edges: Array<[string, string] | [string, string, string]>,
  rest: Omit<WorkflowGraphInput, 'nodes' | 'edges'> = {},
): WorkflowGraph {
  return workflowGraphSchema.parse({
    nodes,
    edges: edges.map(([source, target, handle = 'out'], i) => ({
      id: `e${i}`,
      source,
      target,
      source_handle: handle,
    })),
    ...rest,
  });
}

export const start = (id = 'start', inputs: Array<Record<string, unknown>> = []): NodeInput =>
  ({ id, type: 'start', data: { inputs } }) as NodeInput;

export const end = (id: string, outputs: Array<{ name: string; selector: string[] }> = []): NodeInput => ({
  id,
  type: 'end',
  data: { outputs },
});

export const answer = (id: string, text: string): NodeInput => ({ id, type: 'answer', data: { text } });

export const llm = (id: string, prompt = 'hello', extra: Partial<NodeInput> = {}): NodeInput =>
  ({ id, type: 'llm', data: { user_prompt: prompt }, ...extra }) as NodeInput;

export type { WorkflowEdge, WorkflowNode };
