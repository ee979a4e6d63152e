import type { WorkflowNodeData, WorkflowNodeOf, WorkflowNodeType } from '@athena/contract';

/** What a kind's settings panel gets: its node, a setter for its data, and the space. */
export interface PanelProps<T extends WorkflowNodeType> {
  node: WorkflowNodeOf<T>;
  /** `key` names the field, so a burst of typing in it is one undo step. */
  set: (patch: Partial<WorkflowNodeData<T>>, key: string) => void;
  spaceId: string;
}
