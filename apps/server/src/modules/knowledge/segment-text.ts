import { searchTextOf } from '@athena/knowledge-core';

/** What a Q&A segment is embedded and matched by: its question; other segments by their content. */
export const embeddingTextOf = (segment: { question: string; answer: string; content: string }) =>
  segment.question ? segment.question : segment.content;

/** What full text indexes: a Q&A segment's question apart (matched on it), and its answer as the body. */
export const searchColumnsOf = (segment: { question: string; answer: string; content: string }) => ({
  searchQuestion: searchTextOf(segment.question),
  searchBody: searchTextOf(segment.question ? segment.answer : segment.content),
});
