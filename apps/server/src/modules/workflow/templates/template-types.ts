import type { Language, WorkflowGraphInput, WorkflowTemplateCategory } from '@athena/contract';

/** A template that comes with the product: texts in every language, a graph that passes validation. */
export interface BuiltinTemplate {
  /** Stable: workflows created from it do not keep it, but links and tests name it. */
  id: `builtin-${string}`;
  category: Exclude<WorkflowTemplateCategory, 'team'>;
  name: Record<Language, string>;
  description: Record<Language, string>;
  graph: WorkflowGraphInput;
}
