import { type Language, type WorkflowGraph, workflowGraphSchema } from '@athena/contract';
import { llmAnswer } from './llm-answer.ts';
import { routeQuestion } from './route-question.ts';
import { summarizePage } from './summarize-page.ts';
import type { BuiltinTemplate } from './template-types.ts';

export type { BuiltinTemplate } from './template-types.ts';

/** The built-in templates, in the order the template page shows them. Add a file and list it here. */
export const BUILTIN_TEMPLATES: readonly BuiltinTemplate[] = [llmAnswer, summarizePage, routeQuestion];

// Parsed once: the schema fills every default, so a template reads like a saved draft.
const graphs = new Map<string, WorkflowGraph>(
  BUILTIN_TEMPLATES.map((template) => [template.id, workflowGraphSchema.parse(template.graph)]),
);

export const builtinGraph = (id: string) => graphs.get(id);

/** A built-in template as the contract shows it, in one language. */
export function builtinInLanguage(template: BuiltinTemplate, language: Language) {
  const graph = graphs.get(template.id) as WorkflowGraph;
  return {
    id: template.id,
    builtin: true,
    name: template.name[language],
    description: template.description[language],
    category: template.category,
    node_count: graph.nodes.length,
    graph,
    created_by: null,
    can_delete: false,
  };
}
