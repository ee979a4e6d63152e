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

const templatesById = new Map<string, BuiltinTemplate>(BUILTIN_TEMPLATES.map((template) => [template.id, template]));
// Parsed once per template and language, on first use: the schema fills every default, so a
// template reads like a saved draft. Parsing all of them at start-up cost every start ~0.1 s.
const graphs = new Map<string, WorkflowGraph>();

/** A built-in template's graph in the creator's language; undefined for any other id. */
export function builtinGraph(id: string, language: Language) {
  const template = templatesById.get(id);
  if (!template || !LANGUAGES.includes(language)) return undefined;
  const key = `${id}:${language}`;
  let graph = graphs.get(key);
  if (!graph) {
    graph = workflowGraphSchema.parse(template.graph(language));
    graphs.set(key, graph);
  }
  return graph;
}

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
