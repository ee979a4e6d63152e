import type { Language, WorkflowGraphInput, WorkflowTemplateCategory } from '@athena/contract';

/** One text in every language the product speaks. */
export type Localized = Record<Language, string>;

/**
 * A setting a template cannot choose for the team (which knowledge base, which agent): the graph
 * carries it empty, validation names it, and the description tells the user to set it.
 */
export interface UserChoice {
  node_id: string;
  /** The field as validation names it (`WORKFLOW_NODE_INCOMPLETE`'s `field`). */
  field: 'knowledge bases' | 'agent';
}

/** A template that comes with the product, its texts and its graph written in every language. */
export interface BuiltinTemplate {
  /** Stable: workflows created from it do not keep it, but links and tests name it. */
  id: `builtin-${string}`;
  category: Exclude<WorkflowTemplateCategory, 'team'>;
  name: Localized;
  description: Localized;
  /**
   * The graph in one language: node titles, input labels and prompts are the creator's. Node ids,
   * edges and selectors must be the same in every language, so only the words differ.
   */
  graph: (language: Language) => WorkflowGraphInput;
  /** What validation reports until the user makes these choices; nothing else may be reported. */
  userChoices?: readonly UserChoice[];
}
