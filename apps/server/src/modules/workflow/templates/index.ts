import { LANGUAGES, type Language, type WorkflowGraph, workflowGraphSchema } from '@athena/contract';
import { customerReply } from './customer-reply.ts';
import { feedbackBatch } from './feedback-batch.ts';
import { knowledgeAnswer } from './knowledge-answer.ts';
import { llmAnswer } from './llm-answer.ts';
import { meetingNotes } from './meeting-notes.ts';
import { orderExtract } from './order-extract.ts';
import { productCopy } from './product-copy.ts';
import { refineDraft } from './refine-draft.ts';
import { repoBrief } from './repo-brief.ts';
import { reviewRouter } from './review-router.ts';
import { routeQuestion } from './route-question.ts';
import { summarizePage } from './summarize-page.ts';
import type { BuiltinTemplate } from './template-types.ts';
import { translateParallel } from './translate-parallel.ts';

export type { BuiltinTemplate, Localized, UserChoice } from './template-types.ts';

/** The built-in templates, in the order the template page shows them. Add a file and list it here. */
export const BUILTIN_TEMPLATES: readonly BuiltinTemplate[] = [
  llmAnswer,
  knowledgeAnswer,
  summarizePage,
  meetingNotes,
  translateParallel,
  productCopy,
  refineDraft,
  routeQuestion,
  customerReply,
  reviewRouter,
  feedbackBatch,
  orderExtract,
  repoBrief,
];

// Parsed once per language: the schema fills every default, so a template reads like a saved draft.
const graphs = new Map<string, Record<Language, WorkflowGraph>>(
  BUILTIN_TEMPLATES.map((template) => [
    template.id,
    Object.fromEntries(
      LANGUAGES.map((language) => [language, workflowGraphSchema.parse(template.graph(language))]),
    ) as Record<Language, WorkflowGraph>,
  ]),
);

/** A built-in template's graph in the creator's language; undefined for any other id. */
export const builtinGraph = (id: string, language: Language) => graphs.get(id)?.[language];

/** A built-in template as the contract shows it, in one language. */
export function builtinInLanguage(template: BuiltinTemplate, language: Language) {
  const graph = builtinGraph(template.id, language) as WorkflowGraph;
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
