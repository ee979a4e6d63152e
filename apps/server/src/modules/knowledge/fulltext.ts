import { queryTermsOf } from '@athena/knowledge-core';
import { param, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.ts';
import { idList, rowsOf } from '../../platform/db/sql.ts';
import type { Ranked } from './vectors.ts';

/**
 * Full-text retrieval over jieba-segmented words (docs/knowledge.md, "Full text").
 *
 * Ranking reads every candidate segment's row, so what a search costs is the number of candidates,
 * not the size of the base. The plan therefore bounds the candidates with document frequencies
 * (`knowledge_terms`, kept by triggers): segments are found through the query's rarest terms, and
 * ranked by how much of the query's information (IDF) they contain.
 */

/** About this many candidates: the rarest terms' segments until their frequencies add up to it. */
export const CANDIDATE_BUDGET = 300;
/** Never more candidates than this (a one-word query for a word in half the base). */
export const CANDIDATE_CAP = 600;
/** Pairs are formed among this many of the rarest terms when even the rarest term is too common. */
const PAIRED_TERMS = 6;
/** Share of the score from IDF coverage; the rest is ts_rank_cd (term counts, proximity, question weight). */
const COVERAGE_SHARE = 0.8;

export interface TermStats {
  /** Segments in the searched bases. */
  segments: number;
  /** Segments containing each term; a term absent from the map occurs nowhere. */
  frequency: Map<string, number>;
}

export interface FulltextPlan {
  /** A tsquery of quoted lexemes: what makes a segment a candidate. */
  match: string;
  /** Every query term that occurs, with its inverse document frequency. */
  weights: { term: string; idf: number }[];
}

const lexeme = (term: string) => `'${term}'`;
const HAS_DIGIT = /[0-9]/;

/** BM25's inverse document frequency: always above 0, highest for the rarest terms. */
export const idfOf = (frequency: number, segments: number) =>
  Math.log(1 + (segments - frequency + 0.5) / (frequency + 0.5));

/**
 * Which segments to rank. Terms go in from the rarest while their frequencies add up to at most
 * CANDIDATE_BUDGET (the rarest always). When even the rarest occurs in more segments than that,
 * candidates must contain two terms: pairs of the rarest few, the least frequent pairs first by
 * the estimate f(a)·f(b)/N, again up to the budget. Terms left out still count in the ranking.
 */
export function planFulltext(terms: string[], stats: TermStats): FulltextPlan | null {
  const frequencyOf = (term: string) => stats.frequency.get(term) ?? 0;
  const present = terms
    .filter((term) => frequencyOf(term) > 0)
    .sort((a, b) => frequencyOf(a) - frequencyOf(b) || b.length - a.length || a.localeCompare(b));
  if (present.length === 0) return null;
  const weights = present.map((term) => ({ term, idf: idfOf(frequencyOf(term), stats.segments) }));

  if (frequencyOf(present[0]) <= CANDIDATE_BUDGET || present.length === 1) {
    const anchors: string[] = [];
    let total = 0;
    for (const term of present) {
      if (anchors.length > 0 && total + frequencyOf(term) > CANDIDATE_BUDGET) break;
      anchors.push(term);
      total += frequencyOf(term);
    }
    return { match: anchors.map(lexeme).join(' | '), weights };
  }

  const rarest = present.slice(0, PAIRED_TERMS);
  const pairs = rarest
    .flatMap((first, i) =>
      rarest.slice(i + 1).map((second) => ({
        first,
        second,
        estimate: (frequencyOf(first) * frequencyOf(second)) / Math.max(1, stats.segments),
      })),
    )
    .sort((a, b) => a.estimate - b.estimate);
  const chosen: typeof pairs = [];
  let total = 0;
  for (const pair of pairs) {
    if (chosen.length > 0 && total + pair.estimate > CANDIDATE_BUDGET) break;
    chosen.push(pair);
    total += pair.estimate;
  }
  return { match: chosen.map((pair) => `(${lexeme(pair.first)} & ${lexeme(pair.second)})`).join(' | '), weights };
}

export function createFulltextSearch(db: Db) {
  /**
   * Frequencies from `knowledge_terms`; terms with a digit are not kept there (migration 0009) and
   * are counted here instead, through the GIN index and only up to one past the budget: all the
   * plan needs to know is whether such a term is rare.
   */
  async function statsOf(knowledgeIds: string[], terms: string[]): Promise<TermStats> {
    const bases = idList(knowledgeIds);
    const counted = terms.filter((term) => HAS_DIGIT.test(term));
    const rows = rowsOf<{ term: string; segments: number }>(
      await db.execute(sql`
        SELECT term, sum(segments)::int AS segments FROM knowledge_terms
        WHERE knowledge_id IN (${bases}) AND term = ANY(${param(['', ...terms.filter((term) => !HAS_DIGIT.test(term))])}::text[])
        GROUP BY term
        UNION ALL
        SELECT t.term, (SELECT count(*)::int FROM (
          SELECT 1 FROM knowledge_segments s
          WHERE s.knowledge_id IN (${bases}) AND s.search_vector @@ to_tsquery('simple', quote_literal(t.term))
          LIMIT ${CANDIDATE_BUDGET + 1}) found)
        FROM unnest(${param(counted)}::text[]) AS t(term)`),
    );
    const frequency = new Map(
      rows.filter((row) => row.term !== '' && row.segments > 0).map((row) => [row.term, row.segments]),
    );
    return { segments: rows.find((row) => row.term === '')?.segments ?? 0, frequency };
  }

  /**
   * The best `limit` segments of these bases for the query, scored 0–1: 0.8 × the share of the
   * query's IDF the segment contains + 0.2 × ts_rank_cd (normalisation 32: rank/(rank+1); question
   * words weighted A 1.0, answer/content words B 0.4).
   */
  return async function search(knowledgeIds: string[], query: string, limit: number): Promise<Ranked[]> {
    const terms = queryTermsOf(query);
    if (knowledgeIds.length === 0 || terms.length === 0) return [];
    const plan = planFulltext(terms, await statsOf(knowledgeIds, terms));
    if (!plan) return [];
    const totalIdf = plan.weights.reduce((sum, weight) => sum + weight.idf, 0);
    const lexemes = plan.weights.map((weight) => lexeme(weight.term));
    const result = await db.execute(sql`
      SELECT c.id, c.knowledge_id, c.unit_id, c.position,
        ${COVERAGE_SHARE}::float8 * (
          SELECT coalesce(sum(w.idf), 0) FROM unnest(${param(lexemes)}::tsquery[], ${param(plan.weights.map((w) => w.idf))}::float8[]) AS w(q, idf)
          WHERE c.search_vector @@ w.q
        ) / ${totalIdf}::float8
        + ${1 - COVERAGE_SHARE}::float8 * ts_rank_cd(c.search_vector, to_tsquery('simple', ${lexemes.join(' | ')}), 32) AS score
      FROM (
        SELECT s.id, s.knowledge_id, s.unit_id, s.position, s.search_vector FROM knowledge_segments s
        WHERE s.knowledge_id IN (${idList(knowledgeIds)}) AND s.enabled AND s.search_vector @@ to_tsquery('simple', ${plan.match})
        LIMIT ${CANDIDATE_CAP}
      ) c
      ORDER BY score DESC, c.knowledge_id, c.unit_id, c.position LIMIT ${limit}`);
    return rowsOf<{ id: string; knowledge_id: string; unit_id: string; position: number; score: number }>(result).map(
      (row) => ({
        segmentId: row.id,
        knowledgeId: row.knowledge_id,
        unitId: row.unit_id,
        position: row.position,
        score: Math.min(1, Number(row.score)),
      }),
    );
  };
}
